// A header only fake_good includes: a change here changes fake_good's inputs alone.
#pragma once
inline int fake_good_value()
{
  return 2;
}
