// A minimal test runner for the host-compiled firmware tests: `prog --list` names the tests,
// `prog NAME...` runs some, `prog` runs them all. Exit status 1 when any check failed.
#pragma once
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sstream>
#include <string>
#include <vector>

namespace check {
struct Case {
  const char *name;
  void (*fn)();
};
inline std::vector<Case> &cases() {
  static std::vector<Case> all;
  return all;
}
inline int &failures() {
  static int n = 0;
  return n;
}
struct Register {
  Register(const char *name, void (*fn)()) { cases().push_back({name, fn}); }
};
inline void fail(const char *file, int line, const std::string &what) {
  fprintf(stderr, "%s:%d: check failed: %s\n", file, line, what.c_str());
  failures()++;
}
template <typename A, typename B>
void equal(const A &a, const B &b, const char *ea, const char *eb, const char *file, int line) {
  if (!(a == b)) {
    std::ostringstream s;
    s << ea << " == " << eb << "  (" << a << " vs " << b << ")";
    fail(file, line, s.str());
  }
}
inline int main(int argc, char **argv) {
  if (argc == 2 && strcmp(argv[1], "--list") == 0) {
    for (const Case &c : cases()) printf("%s\n", c.name);
    return 0;
  }
  int ran = 0;
  for (const Case &c : cases()) {
    bool wanted = argc == 1;
    for (int i = 1; i < argc; i++) wanted = wanted || strcmp(argv[i], c.name) == 0;
    if (!wanted) continue;
    int before = failures();
    c.fn();
    ran++;
    printf("%s %s\n", failures() == before ? "ok" : "FAILED", c.name);
  }
  if (ran == 0) {
    fprintf(stderr, "no test matched\n");
    return 2;
  }
  return failures() ? 1 : 0;
}
}  // namespace check

#define TEST(name)                                               \
  static void name();                                            \
  static check::Register register_##name(#name, name);           \
  static void name()
#define CHECK(cond) \
  do {              \
    if (!(cond)) check::fail(__FILE__, __LINE__, #cond); \
  } while (0)
#define CHECK_EQ(a, b) check::equal((a), (b), #a, #b, __FILE__, __LINE__)
