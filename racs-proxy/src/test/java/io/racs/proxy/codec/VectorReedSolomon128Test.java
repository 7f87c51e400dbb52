package io.racs.proxy.codec;

/** Runs the vector codec contract on 128-bit vectors. */
class VectorReedSolomon128Test extends VectorCodecContract {
  @Override
  int vectorBits() {
    return 128;
  }
}
