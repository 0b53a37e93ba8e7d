// nothing: the fake programs write their launch logs themselves
