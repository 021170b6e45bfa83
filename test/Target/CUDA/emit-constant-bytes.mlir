// Dense constants are written as string literals of their little-endian
// bytes (one token for the compiler, not one expression per byte); a C++
// compiler reads them back exactly, escapes included.
// RUN: sparse-opt %s --emit=cuda -o %t.cu
// RUN: FileCheck %s --check-prefix=TEXT < %t.cu
// RUN: sed -n '/^static const char .*_constant[0-9]*\[\] =$/,/;$/p' %t.cu > %t.inc
// RUN: c++ -std=c++17 -DCONSTANTS='"%t.inc"' %S/Inputs/print-constant-bytes.cpp -o %t.exe
// RUN: %t.exe | FileCheck %s --check-prefix=BYTES

// '"', '\', '?' and NUL are escaped; an escape before a digit takes all
// three octal digits so that the digit is not read into it.
// TEXT: // tensor<2xi32>, little-endian bytes.
// TEXT-NEXT: static const char escapes_constant0[] =
// TEXT-NEXT: "\42\134\77\00012\0017";
// BYTES: escapes: 22 5c 3f 00 31 32 01 37
func.func @escapes() -> tensor<2xi32> {
  %0 = sopt.constant dense<[4152354, 922825265]> : tensor<2xi32>
  return %0 : tensor<2xi32>
}

// f32 1.5 and -2.25 (0x3fc00000, 0xc0100000), and lines of 64 bytes.
// TEXT: static const char printable_constant0[] =
// TEXT-NEXT: "\0\0\300\77\0\0\20\300
// BYTES: printable: 00 00 c0 3f 00 00 10 c0{{( 00 00 c0 3f 00 00 10 c0){8}$}}
func.func @printable() -> tensor<18xf32> {
  %0 = sopt.constant dense<[1.5, -2.25, 1.5, -2.25, 1.5, -2.25, 1.5, -2.25, 1.5, -2.25,
                            1.5, -2.25, 1.5, -2.25, 1.5, -2.25, 1.5, -2.25]> : tensor<18xf32>
  return %0 : tensor<18xf32>
}

// BYTES: empty:{{$}}
func.func @empty() -> tensor<0xf32> {
  %0 = sopt.constant dense<> : tensor<0xf32>
  return %0 : tensor<0xf32>
}
