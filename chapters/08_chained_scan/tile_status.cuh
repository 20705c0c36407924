// Chapter 08 - how one block tells another "tile t is done, and here is its value".
//
// A tile's status is a flag and a value. The flag moves X (nothing yet) -> P (the inclusive
// prefix: everything up to and including this tile) in the chained scan; chapter 09 adds A
// (the tile's own aggregate, published before its prefix is known): X -> A -> P.
//
// The danger is the reader seeing the new flag with an old value: the writer stores the
// value, then the flag, but nothing forces other SMs to see the two stores in that order
// (they may go to different L2 slices), and the reader's own L1 may still hold an old copy of
// the value's cache line. Three correct ways to publish, and one that is not:
//
//   RacyStatus            value, then flag, plain stores; the reader polls the flag and reads
//                         the value with a plain load. A race: used by the demo only.
//   FencedStatus          the Teaching Kit's fix: value; __threadfence(); flag. The reader polls
//                         the flag (volatile), __threadfence(), reads the value (volatile).
//                         The writer's fence orders its two stores for every observer; the
//                         reader's fence orders its two loads; volatile keeps both out of L1.
//   ReleaseAcquireStatus  the same contract in C++ memory-model terms: the flag is stored with
//                         release semantics (all my earlier writes become visible no later
//                         than the flag) and loaded with acquire semantics (none of my later
//                         reads can see anything older than what the flag's writer had
//                         written). cuda::atomic_ref compiles these to st.release.gpu and
//                         ld.acquire.gpu: one fence folded into each side.
//   PackedStatus          no ordering needed at all: flag and value share one word, written
//                         and read with a single access. An aligned 64-bit (or, on sm_70+,
//                         128-bit) access is single-copy atomic: a reader sees the old word or
//                         the new one, never half of each. Relaxed order is enough, because the
//                         reader needs nothing but the word itself. 4-byte values: a 64-bit
//                         word; 8-byte values: a 128-bit word (ld/st.relaxed.gpu.b128).
//
// Aggregate and inclusive values get separate slots in the separate-array schemes: with one
// slot rewritten from A's value to P's, a reader that saw A could read P's value (the race
// Liu (2024) fixed by packing).
#pragma once

#include <cuda/atomic>
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace ch08 {

enum TileStatus : unsigned int { kInvalid = 0, kAggregate = 1, kInclusive = 2 };  // X, A, P

template <typename T>
struct Observed {
  unsigned int status;
  T value;
};

template <typename T>
__device__ __forceinline__ T load_volatile(const T* p) { return *static_cast<const volatile T*>(p); }
template <typename T>
__device__ __forceinline__ void store_volatile(T* p, T v) { *static_cast<volatile T*>(p) = v; }

// ---- separate flag and value arrays -------------------------------------------------------

// The arrays every separate-array scheme needs: tiles flags, and two value slots per tile.
template <typename T>
struct StatusArrays {
  unsigned int* flags;
  T* aggregates;
  T* inclusives;

  static std::size_t bytes(std::size_t tiles) { return tiles * (sizeof(unsigned int) + 2 * sizeof(T)) + 32; }
  void point_into(void* memory, std::size_t tiles) {  // flags first: clearing them is one memset
    unsigned char* bytes = static_cast<unsigned char*>(memory);
    flags = reinterpret_cast<unsigned int*>(bytes);
    aggregates = reinterpret_cast<T*>(bytes + (tiles * sizeof(unsigned int) + 15) / 16 * 16);
    inclusives = aggregates + tiles;
  }
  static std::size_t bytes_to_clear(std::size_t tiles) { return tiles * sizeof(unsigned int); }  // the flags: X = 0
  __device__ T* slot(std::size_t tile, unsigned int status) const { return (status == kInclusive ? inclusives : aggregates) + tile; }
};

template <typename T>
struct RacyStatus : StatusArrays<T> {
  __device__ void publish(std::size_t tile, unsigned int status, T value) const {
    *this->slot(tile, status) = value;                  // plain store...
    store_volatile(this->flags + tile, status);         // ...then the flag: no order between them
  }
  __device__ Observed<T> poll(std::size_t tile) const {
    const unsigned int status = load_volatile(this->flags + tile);
    if (status == kInvalid) return {kInvalid, T{}};
    return {status, *this->slot(tile, status)};         // plain load: may come from a stale L1 line
  }
};

template <typename T>
struct FencedStatus : StatusArrays<T> {
  __device__ void publish(std::size_t tile, unsigned int status, T value) const {
    store_volatile(this->slot(tile, status), value);
    __threadfence();                                    // the value is visible before the flag
    store_volatile(this->flags + tile, status);
  }
  __device__ Observed<T> poll(std::size_t tile) const {
    const unsigned int status = load_volatile(this->flags + tile);
    if (status == kInvalid) return {kInvalid, T{}};
    __threadfence();                                    // the value is read after the flag
    return {status, load_volatile(this->slot(tile, status))};
  }
};

template <typename T>
struct ReleaseAcquireStatus : StatusArrays<T> {
  using Flag = cuda::atomic_ref<unsigned int, cuda::thread_scope_device>;
  __device__ void publish(std::size_t tile, unsigned int status, T value) const {
    *this->slot(tile, status) = value;
    Flag(this->flags[tile]).store(status, cuda::memory_order_release);
  }
  __device__ Observed<T> poll(std::size_t tile) const {
    const unsigned int status = Flag(this->flags[tile]).load(cuda::memory_order_acquire);
    if (status == kInvalid) return {kInvalid, T{}};
    return {status, *this->slot(tile, status)};
  }
};

// ---- one packed word -----------------------------------------------------------------------

// The word that holds a status and a value: 8 bytes for a 4-byte value, 16 for an 8-byte one.
// Layout: the value's bits in the low half, the status (chapter 09 adds an epoch above it) in
// the high half.
struct alignas(16) Word128 {
  unsigned long long low, high;
};
template <typename T>
using PackedWord = std::conditional_t<sizeof(T) == 4, unsigned long long, Word128>;

template <typename T>
__host__ __device__ inline PackedWord<T> pack(unsigned int status_bits, T value) {
  static_assert(sizeof(T) == 4 || sizeof(T) == 8, "packed words hold 4- and 8-byte values");
  if constexpr (sizeof(T) == 4) {
    unsigned int bits;
    memcpy(&bits, &value, sizeof bits);
    return (static_cast<unsigned long long>(status_bits) << 32) | bits;
  } else {
    Word128 word;
    memcpy(&word.low, &value, sizeof word.low);
    word.high = status_bits;
    return word;
  }
}

template <typename T>
__host__ __device__ inline unsigned int status_bits_of(const PackedWord<T>& word) {
  if constexpr (sizeof(T) == 4) return static_cast<unsigned int>(word >> 32);
  else return static_cast<unsigned int>(word.high);
}

template <typename T>
__host__ __device__ inline T value_of(const PackedWord<T>& word) {
  T value;
  if constexpr (sizeof(T) == 4) {
    const unsigned int bits = static_cast<unsigned int>(word);
    memcpy(&value, &bits, sizeof value);
  } else {
    memcpy(&value, &word.low, sizeof value);
  }
  return value;
}

__device__ __forceinline__ unsigned long long load_relaxed(unsigned long long* p) {
  return cuda::atomic_ref<unsigned long long, cuda::thread_scope_device>(*p).load(cuda::memory_order_relaxed);
}
__device__ __forceinline__ void store_relaxed(unsigned long long* p, unsigned long long word) {
  cuda::atomic_ref<unsigned long long, cuda::thread_scope_device>(*p).store(word, cuda::memory_order_relaxed);
}
// 128-bit: one ld/st of a .b128 register (PTX ISA 8.3, sm_70 and later), single-copy atomic.
__device__ __forceinline__ Word128 load_relaxed(Word128* p) {
  Word128 word;
  asm volatile("{\n\t.reg .b128 w;\n\tld.relaxed.gpu.global.b128 w, [%2];\n\tmov.b128 {%0, %1}, w;\n\t}"
               : "=l"(word.low), "=l"(word.high) : "l"(p) : "memory");
  return word;
}
__device__ __forceinline__ void store_relaxed(Word128* p, Word128 word) {
  asm volatile("{\n\t.reg .b128 w;\n\tmov.b128 w, {%1, %2};\n\tst.relaxed.gpu.global.b128 [%0], w;\n\t}"
               :: "l"(p), "l"(word.low), "l"(word.high) : "memory");
}

template <typename T>
struct PackedStatus {
  using Word = PackedWord<T>;
  Word* words;

  static std::size_t bytes(std::size_t tiles) { return tiles * sizeof(Word) + 32; }
  void point_into(void* memory, std::size_t) { words = static_cast<Word*>(memory); }
  static std::size_t bytes_to_clear(std::size_t tiles) { return tiles * sizeof(Word); }  // status 0 = X

  __device__ void publish(std::size_t tile, unsigned int status, T value) const { store_relaxed(words + tile, pack(status, value)); }
  __device__ Observed<T> poll(std::size_t tile) const {
    const Word word = load_relaxed(words + tile);
    return {status_bits_of<T>(word), value_of<T>(word)};
  }
};

}  // namespace ch08
