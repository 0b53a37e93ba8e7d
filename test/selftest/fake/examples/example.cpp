// An example that works and launches FakeKernel.
#include "../test/launches.hpp"

int main()
{
  fake::launch("FakeKernel");
  return 0;
}
