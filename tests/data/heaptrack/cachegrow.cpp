// A leak into growing containers that the program frees at exit
// (tests/data/heaptrack/README.md): remember() adds a 200-249 character
// std::string to a global std::map and a ~104 character one to a global
// std::vector, once per millisecond for 1.5 s; work() builds a temporary
// vector and string of the same sizes and drops them.  The globals'
// destructors free everything at exit, so heaptrack reports no leak; the
// growth shows only over time.
//
//   g++ -O0 -fno-builtin -g -o cachegrow cachegrow.cpp
//   heaptrack -o cachegrow ./cachegrow
#include <map>
#include <string>
#include <vector>
#include <unistd.h>

static std::map<int, std::string> cache;
static std::vector<std::string> journal;

static void
remember (int i)
{
  cache[i] = std::string (200 + i % 50, 'x');
  journal.push_back (std::string (100, 'y') + std::to_string (i));
}

static void
work (int i)
{
  std::vector<int> tmp;
  for (int k = 0; k < 50; k++)
    tmp.push_back (k * i);
  std::string s = "temp-" + std::to_string (i) + std::string (64, 'z');
  (void) s;
}

int
main ()
{
  for (int i = 0; i < 1500; i++)
    {
      remember (i);
      work (i);
      usleep (1000);
    }
  return 0;
}
