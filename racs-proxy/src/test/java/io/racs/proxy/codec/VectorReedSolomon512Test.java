package io.racs.proxy.codec;

/** Runs the vector codec contract on 512-bit vectors. */
class VectorReedSolomon512Test extends VectorCodecContract {
  @Override
  int vectorBits() {
    return 512;
  }
}
