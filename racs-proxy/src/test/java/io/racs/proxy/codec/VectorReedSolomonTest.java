package io.racs.proxy.codec;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Runs the codec contract on the Vector API path. The test JVM is started with {@code --add-modules
 * jdk.incubator.vector}; if it were not, this class fails rather than skip.
 */
class VectorReedSolomonTest extends ErasureCodecContract {
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
