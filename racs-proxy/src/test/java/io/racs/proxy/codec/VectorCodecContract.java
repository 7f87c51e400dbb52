package io.racs.proxy.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The codec contract on the Vector API path, run once per vector width (whatever this CPU would
 * pick, every width is correct everywhere). The test JVM is started with {@code --add-modules
 * jdk.incubator.vector}; if it were not, these classes fail rather than skip.
 */
abstract class VectorCodecContract extends ErasureCodecContract {
  /** The vector width under test. */
  abstract int vectorBits();

  @Override
  ErasureCodec codec(int k, int m) {
    ErasureCodec codec = new ReedSolomon(Geometry.of(k, m), Implementation.VECTOR, vectorBits());
    assertThat(codec).hasToString("ReedSolomon[" + k + "x" + m + ", vector-" + vectorBits() + "]");
    return codec;
  }

  @BeforeAll
  static void vectorModulePresent() {
    assertThat(Implementation.vectorAvailable())
        .as("the test JVM must run with --add-modules jdk.incubator.vector")
        .isTrue();
  }

  @Override
  Implementation implementation() {
    return Implementation.VECTOR;
  }

  @Test
  void vectorBits_whenPropertyInvalid_namesIt() {
    System.setProperty(Implementation.BITS_PROPERTY, "100");
    try {
      assertThatThrownBy(Implementation::vectorBits)
          .hasMessage("racs.codec.vectorBits: 100 (expected: auto, 128, 256 or 512)");
    } finally {
      System.clearProperty(Implementation.BITS_PROPERTY);
    }
    assertThat(Implementation.vectorBits()).isIn(128, 512);
  }

  @Test
  void fromSystemProperty_whenAuto_choosesVector() {
    String old = System.getProperty(Implementation.PROPERTY);
    try {
      System.clearProperty(Implementation.PROPERTY);
      assertThat(Implementation.fromSystemProperty()).isEqualTo(Implementation.VECTOR);
      System.setProperty(Implementation.PROPERTY, "scalar");
      assertThat(ErasureCodec.create(Geometry.of(4, 2)).implementation())
          .isEqualTo(Implementation.SCALAR);
    } finally {
      if (old == null) {
        System.clearProperty(Implementation.PROPERTY);
      } else {
        System.setProperty(Implementation.PROPERTY, old);
      }
    }
  }
}
