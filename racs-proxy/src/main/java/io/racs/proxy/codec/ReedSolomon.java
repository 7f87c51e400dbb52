package io.racs.proxy.codec;

import java.lang.reflect.InvocationTargetException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The {@link ErasureCodec}: argument checks, the encoding matrix, cached decoding plans and pooled
 * working buffers around a {@link Kernel} that does the arithmetic.
 */
final class ReedSolomon implements ErasureCodec {
  /** Bytes of a direct buffer staged through the heap at a time (the vector API reads arrays). */
  private static final int STAGING_BYTES = 8 * 1024;

  /** Decoding plans kept per codec; a pattern that misses is simply recomputed. */
  private static final int PLAN_SLOTS = 256;

  private final Geometry geometry;
  private final Implementation implementation;
  private final Kernel kernel;
  private final int vectorBits;
  private final int dataShards;
  private final int totalShards;
  private final Matrix matrix;
  private final CodingRows parityRows;
  private final AtomicReferenceArray<Plan> plans = new AtomicReferenceArray<>(PLAN_SLOTS);
  private final AtomicReferenceArray<Scratch> pool;

  ReedSolomon(Geometry geometry, Implementation implementation) {
    this(
        geometry,
        implementation,
        implementation == Implementation.VECTOR ? Implementation.vectorBits() : 0);
  }

  /** A codec with an explicit vector width (tests run every width on any machine). */
  ReedSolomon(Geometry geometry, Implementation implementation, int vectorBits) {
    this.geometry = geometry;
    this.implementation = implementation;
    this.vectorBits = implementation == Implementation.VECTOR ? vectorBits : 0;
    this.kernel =
        implementation == Implementation.VECTOR ? vectorKernel(vectorBits) : new ScalarKernel();
    this.dataShards = geometry.dataShards();
    this.totalShards = geometry.totalShards();
    this.matrix = Matrix.systematic(dataShards, geometry.parityShards());
    byte[][] parity = new byte[geometry.parityShards()][];
    for (int p = 0; p < parity.length; p++) {
      parity[p] = matrix.row(dataShards + p);
    }
    this.parityRows = new CodingRows(parity, kernel.tableBytes());
    this.pool =
        new AtomicReferenceArray<>(Math.max(4, 2 * Runtime.getRuntime().availableProcessors()));
  }

  private static Kernel vectorKernel(int vectorBits) {
    if (!Implementation.vectorAvailable()) {
      throw new IllegalStateException(
          "implementation: vector (expected: a JVM started with --add-modules jdk.incubator.vector)");
    }
    if (vectorBits != 128 && vectorBits != 256 && vectorBits != 512) {
      throw new IllegalArgumentException(
          "vectorBits: " + vectorBits + " (expected: 128, 256 or 512)");
    }
    String name = "io.racs.proxy.codec.VectorKernel" + vectorBits;
    try {
      // Loaded by name so that this class links on JVMs without the incubator module.
      return (Kernel) Class.forName(name).getDeclaredConstructor().newInstance();
    } catch (ClassNotFoundException
        | NoSuchMethodException
        | InstantiationException
        | IllegalAccessException
        | InvocationTargetException e) {
      throw new IllegalStateException("cannot load " + name, e);
    }
  }

  @Override
  public Geometry geometry() {
    return geometry;
  }

  @Override
  public Implementation implementation() {
    return implementation;
  }

  /** The encoding matrix entry (row, column): rows 0..k-1 are the identity. For tests. */
  byte matrixEntry(int row, int column) {
    return matrix.get(row, column);
  }

  @Override
  public String toString() {
    return "ReedSolomon["
        + geometry
        + ", "
        + implementation
        + (vectorBits > 0 ? "-" + vectorBits : "")
        + "]";
  }

  // ---- byte[] API ----

  @Override
  public void encodeParity(byte[][] shards, int offset, int length) {
    checkArrays(shards, offset, length);
    if (geometry.parityShards() == 0) {
      return;
    }
    Scratch s = acquire();
    try {
      for (int c = 0; c < dataShards; c++) {
        s.inputs[c] = shards[c];
        s.inOffsets[c] = offset;
      }
      for (int p = 0; p < geometry.parityShards(); p++) {
        s.outputs[p] = shards[dataShards + p];
        s.outOffsets[p] = offset;
      }
      kernel.multiply(parityRows, s.inputs, s.inOffsets, s.outputs, s.outOffsets, length);
    } finally {
      release(s);
    }
  }

  @Override
  public void reconstruct(byte[][] shards, boolean[] present, int offset, int length) {
    decode(shards, present, offset, length, false);
  }

  @Override
  public void reconstructData(byte[][] shards, boolean[] present, int offset, int length) {
    decode(shards, present, offset, length, true);
  }

  private void decode(
      byte[][] shards, boolean[] present, int offset, int length, boolean dataOnly) {
    checkArrays(shards, offset, length);
    Plan plan = plan(present, dataOnly);
    if (plan == null) {
      return;
    }
    Scratch s = acquire();
    try {
      for (int c = 0; c < dataShards; c++) {
        s.inputs[c] = shards[plan.inputs[c]];
        s.inOffsets[c] = offset;
      }
      for (int o = 0; o < plan.outputs.length; o++) {
        s.outputs[o] = shards[plan.outputs[o]];
        s.outOffsets[o] = offset;
      }
      kernel.multiply(plan.rows, s.inputs, s.inOffsets, s.outputs, s.outOffsets, length);
    } finally {
      release(s);
    }
  }

  @Override
  public boolean verifyParity(byte[][] shards, int offset, int length) {
    checkArrays(shards, offset, length);
    int parity = geometry.parityShards();
    if (parity == 0) {
      return true;
    }
    Scratch s = acquire();
    try {
      byte[][] staging = s.staging();
      for (int start = 0; start < length; start += STAGING_BYTES) {
        int chunk = Math.min(STAGING_BYTES, length - start);
        for (int c = 0; c < dataShards; c++) {
          s.inputs[c] = shards[c];
          s.inOffsets[c] = offset + start;
        }
        for (int p = 0; p < parity; p++) {
          s.outputs[p] = staging[p];
          s.outOffsets[p] = 0;
        }
        kernel.multiply(parityRows, s.inputs, s.inOffsets, s.outputs, s.outOffsets, chunk);
        for (int p = 0; p < parity; p++) {
          int at = offset + start;
          if (!Arrays.equals(staging[p], 0, chunk, shards[dataShards + p], at, at + chunk)) {
            return false;
          }
        }
      }
      return true;
    } finally {
      release(s);
    }
  }

  // ---- ByteBuffer API ----

  @Override
  public void encodeParity(ByteBuffer[] shards) {
    int length = checkBuffers(shards);
    checkWritable(shards, dataShards, totalShards);
    if (geometry.parityShards() == 0) {
      return;
    }
    Scratch s = acquire();
    try {
      for (int start = 0; start < length; start += STAGING_BYTES) {
        int chunk = Math.min(STAGING_BYTES, length - start);
        for (int c = 0; c < dataShards; c++) {
          s.bindInput(c, shards[c], start, chunk, c);
        }
        for (int p = 0; p < geometry.parityShards(); p++) {
          s.bindOutput(p, shards[dataShards + p], start, dataShards + p);
        }
        kernel.multiply(parityRows, s.inputs, s.inOffsets, s.outputs, s.outOffsets, chunk);
        for (int p = 0; p < geometry.parityShards(); p++) {
          s.flushOutput(p, shards[dataShards + p], start, chunk);
        }
      }
    } finally {
      release(s);
    }
  }

  @Override
  public void reconstruct(ByteBuffer[] shards, boolean[] present) {
    decode(shards, present, false);
  }

  @Override
  public void reconstructData(ByteBuffer[] shards, boolean[] present) {
    decode(shards, present, true);
  }

  private void decode(ByteBuffer[] shards, boolean[] present, boolean dataOnly) {
    int length = checkBuffers(shards);
    Plan plan = plan(present, dataOnly);
    if (plan == null) {
      return;
    }
    for (int o : plan.outputs) {
      checkWritable(shards, o, o + 1);
    }
    Scratch s = acquire();
    try {
      for (int start = 0; start < length; start += STAGING_BYTES) {
        int chunk = Math.min(STAGING_BYTES, length - start);
        for (int c = 0; c < dataShards; c++) {
          s.bindInput(c, shards[plan.inputs[c]], start, chunk, plan.inputs[c]);
        }
        for (int o = 0; o < plan.outputs.length; o++) {
          s.bindOutput(o, shards[plan.outputs[o]], start, plan.outputs[o]);
        }
        kernel.multiply(plan.rows, s.inputs, s.inOffsets, s.outputs, s.outOffsets, chunk);
        for (int o = 0; o < plan.outputs.length; o++) {
          s.flushOutput(o, shards[plan.outputs[o]], start, chunk);
        }
      }
    } finally {
      release(s);
    }
  }

  @Override
  public boolean verifyParity(ByteBuffer[] shards) {
    int length = checkBuffers(shards);
    int parity = geometry.parityShards();
    if (parity == 0) {
      return true;
    }
    Scratch s = acquire();
    try {
      byte[][] staging = s.staging();
      byte[] actual = s.compare();
      for (int start = 0; start < length; start += STAGING_BYTES) {
        int chunk = Math.min(STAGING_BYTES, length - start);
        for (int c = 0; c < dataShards; c++) {
          s.bindInput(c, shards[c], start, chunk, c);
        }
        // Expected parity goes to the staging rows of the parity shards, which inputs never use.
        for (int p = 0; p < parity; p++) {
          s.outputs[p] = staging[dataShards + p];
          s.outOffsets[p] = 0;
        }
        kernel.multiply(parityRows, s.inputs, s.inOffsets, s.outputs, s.outOffsets, chunk);
        for (int p = 0; p < parity; p++) {
          ByteBuffer buffer = shards[dataShards + p];
          buffer.get(buffer.position() + start, actual, 0, chunk);
          if (!Arrays.equals(staging[dataShards + p], 0, chunk, actual, 0, chunk)) {
            return false;
          }
        }
      }
      return true;
    } finally {
      release(s);
    }
  }

  // ---- plans ----

  /** The plan for this erasure pattern, or null when there is nothing to rebuild. */
  private Plan plan(boolean[] present, boolean dataOnly) {
    if (present == null || present.length != totalShards) {
      throw new IllegalArgumentException(
          "present.length: "
              + (present == null ? "null" : present.length)
              + " (expected: "
              + totalShards
              + ")");
    }
    long m0 = 0;
    long m1 = 0;
    long m2 = 0;
    long m3 = 0;
    int count = 0;
    int missingWanted = 0;
    for (int i = 0; i < totalShards; i++) {
      if (present[i]) {
        count++;
        long bit = 1L << (i & 63);
        switch (i >>> 6) {
          case 0 -> m0 |= bit;
          case 1 -> m1 |= bit;
          case 2 -> m2 |= bit;
          default -> m3 |= bit;
        }
      } else if (!dataOnly || i < dataShards) {
        missingWanted++;
      }
    }
    if (count < dataShards) {
      throw new IllegalArgumentException(
          "present: "
              + count
              + " of "
              + totalShards
              + " shards (expected: at least "
              + dataShards
              + " to reconstruct "
              + geometry
              + ")");
    }
    if (missingWanted == 0) {
      return null;
    }
    long hash = (m0 * 0x9E3779B97F4A7C15L) ^ (m1 * 0xC2B2AE3D27D4EB4FL);
    hash ^= (m2 * 0x165667B19E3779F9L) ^ (m3 * 0x27D4EB2F165667C5L) ^ (dataOnly ? 1 : 0);
    int slot = (int) (hash ^ (hash >>> 32)) & (PLAN_SLOTS - 1);
    Plan cached = plans.get(slot);
    if (cached != null && cached.matches(m0, m1, m2, m3, dataOnly)) {
      return cached;
    }
    Plan plan = buildPlan(present, dataOnly, m0, m1, m2, m3);
    plans.set(slot, plan);
    return plan;
  }

  private Plan buildPlan(boolean[] present, boolean dataOnly, long m0, long m1, long m2, long m3) {
    int[] inputs = new int[dataShards];
    int found = 0;
    for (int i = 0; i < totalShards && found < dataShards; i++) {
      if (present[i]) {
        inputs[found++] = i;
      }
    }
    Matrix sub = new Matrix(dataShards, dataShards);
    for (int r = 0; r < dataShards; r++) {
      for (int c = 0; c < dataShards; c++) {
        sub.set(r, c, matrix.get(inputs[r], c));
      }
    }
    Matrix decode = sub.invert();
    int outputCount = 0;
    for (int i = 0; i < (dataOnly ? dataShards : totalShards); i++) {
      if (!present[i]) {
        outputCount++;
      }
    }
    int[] outputs = new int[outputCount];
    byte[][] rows = new byte[outputCount][];
    int o = 0;
    for (int i = 0; i < (dataOnly ? dataShards : totalShards); i++) {
      if (present[i]) {
        continue;
      }
      outputs[o] = i;
      if (i < dataShards) {
        // Data shard i = row i of the inverse applied to the chosen inputs.
        rows[o] = decode.row(i);
      } else {
        // Parity shard i = its encoding row times the data, i.e. times the inverse.
        Matrix encodingRow = matrix.subMatrix(i, 0, i + 1, dataShards);
        rows[o] = encodingRow.times(decode).row(0);
      }
      o++;
    }
    return new Plan(
        m0, m1, m2, m3, dataOnly, inputs, outputs, new CodingRows(rows, kernel.tableBytes()));
  }

  /** How to rebuild one erasure pattern: which shards to read, which to write, with what rows. */
  private record Plan(
      long m0,
      long m1,
      long m2,
      long m3,
      boolean dataOnly,
      int[] inputs,
      int[] outputs,
      CodingRows rows) {
    boolean matches(long a, long b, long c, long d, boolean wantDataOnly) {
      return m0 == a && m1 == b && m2 == c && m3 == d && dataOnly == wantDataOnly;
    }
  }

  // ---- checks ----

  /** Checks that there is one array or buffer per shard of the geometry. */
  private void checkCount(Object[] shards) {
    if (shards == null || shards.length != totalShards) {
      throw new IllegalArgumentException(
          "shards.length: "
              + (shards == null ? "null" : shards.length)
              + " (expected: "
              + totalShards
              + " for "
              + geometry
              + ")");
    }
  }

  private void checkArrays(byte[][] shards, int offset, int length) {
    checkCount(shards);
    if (offset < 0 || length < 0) {
      throw new IllegalArgumentException(
          "offset, length: " + offset + ", " + length + " (expected: >= 0)");
    }
    for (int i = 0; i < totalShards; i++) {
      if (shards[i] == null) {
        throw new IllegalArgumentException("shards[" + i + "]: null (expected: an array)");
      }
      if ((long) offset + length > shards[i].length) {
        throw new IllegalArgumentException(
            "shards["
                + i
                + "].length: "
                + shards[i].length
                + " (expected: >= offset + length = "
                + ((long) offset + length)
                + ")");
      }
    }
  }

  private int checkBuffers(ByteBuffer[] shards) {
    checkCount(shards);
    int length = -1;
    for (int i = 0; i < totalShards; i++) {
      if (shards[i] == null) {
        throw new IllegalArgumentException("shards[" + i + "]: null (expected: a buffer)");
      }
      int remaining = shards[i].remaining();
      if (length < 0) {
        length = remaining;
      } else if (remaining != length) {
        throw new IllegalArgumentException(
            "shards["
                + i
                + "].remaining(): "
                + remaining
                + " (expected: "
                + length
                + ", as shards[0])");
      }
    }
    return length;
  }

  private static void checkWritable(ByteBuffer[] shards, int from, int to) {
    for (int i = from; i < to; i++) {
      if (shards[i].isReadOnly()) {
        throw new IllegalArgumentException(
            "shards[" + i + "]: read-only (expected: a writable buffer to write into)");
      }
    }
  }

  // ---- pooled working memory ----

  private Scratch acquire() {
    for (int i = 0; i < pool.length(); i++) {
      Scratch s = pool.getAndSet(i, null);
      if (s != null) {
        return s;
      }
    }
    return new Scratch(totalShards);
  }

  private void release(Scratch s) {
    s.clearReferences();
    for (int i = 0; i < pool.length(); i++) {
      if (pool.compareAndSet(i, null, s)) {
        return;
      }
    }
  }

  /** Per-call working memory, pooled so that steady-state calls allocate nothing. */
  private static final class Scratch {
    final byte[][] inputs;
    final int[] inOffsets;
    final byte[][] outputs;
    final int[] outOffsets;
    private byte[][] staging;
    private byte[] compare;

    Scratch(int totalShards) {
      inputs = new byte[totalShards][];
      inOffsets = new int[totalShards];
      outputs = new byte[totalShards][];
      outOffsets = new int[totalShards];
    }

    /** One staging row per shard index, allocated on first use. */
    byte[][] staging() {
      if (staging == null) {
        staging = new byte[inputs.length][STAGING_BYTES];
      }
      return staging;
    }

    byte[] compare() {
      if (compare == null) {
        compare = new byte[STAGING_BYTES];
      }
      return compare;
    }

    /** Points input slot {@code c} at the chunk of {@code buffer}, staging it if direct. */
    void bindInput(int c, ByteBuffer buffer, int start, int chunk, int shardIndex) {
      if (buffer.hasArray()) {
        inputs[c] = buffer.array();
        inOffsets[c] = buffer.arrayOffset() + buffer.position() + start;
      } else {
        byte[] row = staging()[shardIndex];
        buffer.get(buffer.position() + start, row, 0, chunk);
        inputs[c] = row;
        inOffsets[c] = 0;
      }
    }

    /** Points output slot {@code o} at the chunk of {@code buffer}, or at staging if direct. */
    void bindOutput(int o, ByteBuffer buffer, int start, int shardIndex) {
      if (buffer.hasArray()) {
        outputs[o] = buffer.array();
        outOffsets[o] = buffer.arrayOffset() + buffer.position() + start;
      } else {
        outputs[o] = staging()[shardIndex];
        outOffsets[o] = 0;
      }
    }

    /** Copies a staged output chunk back into its direct buffer. */
    void flushOutput(int o, ByteBuffer buffer, int start, int chunk) {
      if (!buffer.hasArray()) {
        buffer.put(buffer.position() + start, outputs[o], 0, chunk);
      }
    }

    void clearReferences() {
      Arrays.fill(inputs, null);
      Arrays.fill(outputs, null);
    }
  }
}
