package io.racs.proxy.codec;

/** Runs the vector codec contract on 256-bit vectors. */
class VectorReedSolomon256Test extends VectorCodecContract {
  @Override
  int vectorBits() {
    return 256;
  }
}
