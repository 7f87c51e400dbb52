package io.racs.proxy.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** Proves the GF(2^8) tables form the field of polynomial 0x11D and the matrix algebra on it. */
class GaloisTest {
  @Test
  void multiply_isTheCarrylessProductModulo0x11D() {
    for (int a = 0; a < 256; a++) {
      for (int b = 0; b < 256; b++) {
        int product = 0;
        int x = a;
        for (int bit = 0; bit < 8; bit++) {
          if ((b & (1 << bit)) != 0) {
            product ^= x;
          }
          x <<= 1;
          if ((x & 0x100) != 0) {
            x ^= Galois.POLYNOMIAL;
          }
        }
        assertThat(Galois.multiply((byte) a, (byte) b) & 0xFF).isEqualTo(product);
        if (b != 0) {
          assertThat(Galois.divide((byte) product, (byte) b) & 0xFF).isEqualTo(a);
        }
      }
    }
    assertThatThrownBy(() -> Galois.divide((byte) 1, (byte) 0))
        .isInstanceOf(ArithmeticException.class);
  }

  @Test
  void nibbleTables_reproduceMultiplication() {
    byte[] tables = new byte[32];
    for (int c = 0; c < 256; c++) {
      Galois.nibbleTables((byte) c, tables, 0);
      for (int x = 0; x < 256; x++) {
        assertThat((byte) (tables[x & 15] ^ tables[16 + (x >>> 4)]))
            .isEqualTo(Galois.multiply((byte) c, (byte) x));
      }
    }
  }

  @Test
  void power_followsBackblazeConventions() {
    assertThat(Galois.power((byte) 0, 0)).isEqualTo((byte) 1);
    assertThat(Galois.power((byte) 0, 3)).isEqualTo((byte) 0);
    assertThat(Galois.power((byte) 2, 8)).isEqualTo((byte) 0x1D);
  }

  @Test
  void invert_timesOriginal_isIdentity() {
    Matrix v = Matrix.vandermonde(6, 6);
    Matrix product = v.times(v.invert());
    for (int r = 0; r < 6; r++) {
      for (int c = 0; c < 6; c++) {
        assertThat(product.get(r, c)).isEqualTo((byte) (r == c ? 1 : 0));
      }
    }
    Matrix singular = new Matrix(2, 2);
    singular.set(0, 0, (byte) 1);
    singular.set(1, 0, (byte) 1);
    assertThatThrownBy(singular::invert).hasMessage("matrix is singular");
  }
}
