/* Reference outputs of xoshiro128** for tests/random: the algorithm as published by
 * Blackman & Vigna, https://prng.di.unimi.it/xoshiro128starstar.c (public domain), with a
 * main() that prints the first 16 outputs from the state {1, 2, 3, 4} and from a second state.
 * Build and run:  gcc -O2 -o /tmp/x xoshiro128starstar.c && /tmp/x > xoshiro128starstar.json */
#include <stdint.h>
#include <stdio.h>

static inline uint32_t rotl(const uint32_t x, int k) { return (x << k) | (x >> (32 - k)); }
static uint32_t s[4];
uint32_t next(void) {
  const uint32_t result = rotl(s[1] * 5, 7) * 9;
  const uint32_t t = s[1] << 9;
  s[2] ^= s[0]; s[3] ^= s[1]; s[1] ^= s[2]; s[0] ^= s[3];
  s[2] ^= t;
  s[3] = rotl(s[3], 11);
  return result;
}
static void run(const char *name, uint32_t a, uint32_t b, uint32_t c, uint32_t d, int last) {
  s[0] = a; s[1] = b; s[2] = c; s[3] = d;
  printf("  \"%s\": {\"state\": [%u, %u, %u, %u], \"outputs\": [", name, a, b, c, d);
  for (int i = 0; i < 16; i++) printf("%s%u", i ? ", " : "", next());
  printf("]}%s\n", last ? "" : ",");
}
int main(void) {
  printf("{\n");
  run("small", 1, 2, 3, 4, 0);
  run("large", 0x9e3779b9u, 0x7f4a7c15u, 0xf39cc060u, 0x5cedc834u, 1);
  printf("}\n");
  return 0;
}
