// Prints, in hex, the bytes of the constants a generated .cu holds: the
// test includes their definitions (cut out of the .cu) to check that a C++
// compiler reads the literals back as the bytes the emitter meant.
#include <cstdio>

#include CONSTANTS

static void print(const char *name, const char *bytes, unsigned long size) {
  std::printf("%s:", name);
  for (unsigned long i = 0; i < size; ++i)
    std::printf(" %02x", static_cast<unsigned char>(bytes[i]));
  std::printf("\n");
}

int main() {
  // sizeof counts the literal's terminating NUL, which is not data.
  print("escapes", escapes_constant0, sizeof(escapes_constant0) - 1);
  print("printable", printable_constant0, sizeof(printable_constant0) - 1);
  print("empty", empty_constant0, sizeof(empty_constant0) - 1);
  return 0;
}
