package io.racs.proxy.codec;

import java.util.Locale;

/**
 * How a codec multiplies in GF(2^8). {@link #VECTOR} uses the Java Vector API with split-nibble
 * table lookups (one byte shuffle per 16 bytes); {@link #SCALAR} is portable Java using a 64 KiB
 * multiplication table. Both produce identical bytes.
 *
 * <p>The default is chosen at run time: the system property {@value #PROPERTY} ({@code vector},
 * {@code scalar} or {@code auto}, the default) decides; {@code auto} picks {@link #VECTOR} when the
 * JVM was started with {@code --add-modules jdk.incubator.vector}, else {@link #SCALAR}.
 */
public enum Implementation {
  /** The Java Vector API path ({@code jdk.incubator.vector}). */
  VECTOR,
  /** The portable scalar path. */
  SCALAR;

  /** The system property that forces an implementation. */
  public static final String PROPERTY = "racs.codec.implementation";

  /** The system property that forces the vector width of {@link #VECTOR}: 128, 256 or 512. */
  public static final String BITS_PROPERTY = "racs.codec.vectorBits";

  private static final String VECTOR_MODULE = "jdk.incubator.vector";

  /** True when the Vector API module is in the boot layer of this JVM. */
  public static boolean vectorAvailable() {
    return ModuleLayer.boot().findModule(VECTOR_MODULE).isPresent();
  }

  /**
   * The implementation this JVM should use, from {@value #PROPERTY}.
   *
   * @throws IllegalStateException if the property asks for {@code vector} and the module is absent,
   *     or has an unknown value
   */
  public static Implementation fromSystemProperty() {
    String value = System.getProperty(PROPERTY, "auto").trim().toLowerCase(Locale.ROOT);
    return switch (value) {
      case "auto" -> vectorAvailable() ? VECTOR : SCALAR;
      case "vector" -> {
        if (!vectorAvailable()) {
          throw new IllegalStateException(
              PROPERTY
                  + ": vector (expected: a JVM started with --add-modules "
                  + VECTOR_MODULE
                  + ")");
        }
        yield VECTOR;
      }
      case "scalar" -> SCALAR;
      default ->
          throw new IllegalStateException(
              PROPERTY + ": " + value + " (expected: auto, vector or scalar)");
    };
  }

  /**
   * The vector width in bits the vector path uses: {@value #BITS_PROPERTY} if set to 128, 256 or
   * 512; otherwise ({@code auto}) 512 on x86 CPUs with AVX-512 VBMI, where a 64-lane byte {@code
   * selectFrom} is one {@code vpermb}, and 128 everywhere else, where a 16-lane one is one {@code
   * pshufb} (or NEON {@code tbl}) while wider ones need lane-crossing sequences.
   *
   * @throws IllegalStateException if the property is not 128, 256, 512 or auto
   */
  public static int vectorBits() {
    String value = System.getProperty(BITS_PROPERTY, "auto").trim().toLowerCase(Locale.ROOT);
    return switch (value) {
      case "auto" -> CpuFlags.has("avx512vbmi") ? 512 : 128;
      case "128" -> 128;
      case "256" -> 256;
      case "512" -> 512;
      default ->
          throw new IllegalStateException(
              BITS_PROPERTY + ": " + value + " (expected: auto, 128, 256 or 512)");
    };
  }

  /** The lower-case name used in properties, benchmark parameters and reports. */
  @Override
  public String toString() {
    return name().toLowerCase(Locale.ROOT);
  }
}
