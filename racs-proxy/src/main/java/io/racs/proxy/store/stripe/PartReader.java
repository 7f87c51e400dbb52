package io.racs.proxy.store.stripe;

import io.racs.proxy.codec.ErasureCodec;
import io.racs.proxy.crypto.LendingInput;
import io.racs.proxy.store.api.ChunkedBody;
import io.racs.proxy.store.api.StoreConfig;
import io.racs.proxy.store.api.StoreStats;
import io.racs.proxy.store.array.RepositoryArray;
import io.racs.proxy.store.format.PartMeta;
import java.io.IOException;
import java.io.InputStream;

/**
 * Reads bytes {@code [from, to)} of one part back from its shards, a stripe at a time, as an input
 * stream, a chunked body or lent runs of bytes. The stripes come from a {@link StripeLoader} under
 * a GET's {@link StripePolicy}: it reads the k data shards when they are healthy, hedges to parity
 * when one is late, and stands parity in for a piece that fails its CRC32C for that stripe alone,
 * with a warning that the read was repaired; this reader hands out the data it loaded, straight out
 * of the pieces that hold it.
 */
public final class PartReader extends InputStream implements ChunkedBody, LendingInput {

  private final StripeLoader loader;
  private final PartMeta part;
  private final int k;
  private final long stripeBytes;
  private final long from;
  private final long to;
  private final long lastStripe;
  private int pieceLength;
  private long stripe;
  private int dataStart;
  private int dataEnd;
  private byte[] lentArray;
  private int lentOffset;

  public PartReader(
      RepositoryArray array,
      ErasureCodec codec,
      StoreConfig config,
      StoreStats stats,
      PartMeta part,
      long from,
      long to) {
    this.part = part;
    this.k = codec.geometry().dataShards();
    this.stripeBytes = part.stripeBytes(k);
    this.from = from;
    this.to = to;
    this.stripe = from / stripeBytes;
    this.lastStripe = to > from ? (to - 1) / stripeBytes : stripe - 1;
    this.loader = new StripeLoader(array, codec, config, stats, part, lastStripe, StripePolicy.GET);
  }

  /** How many bytes of the part this reader hands out: {@code to - from}. */
  public long lengthBytes() {
    return to - from;
  }

  /**
   * Makes this a read that may be thrown away (a GET that starts reading before it knows the
   * version is current): until {@link #confirm} it counts into its own statistics and warns of
   * nothing, so that dropped reads of collected versions do not show up as degraded reads.
   */
  public PartReader tentative() {
    loader.tentative();
    return this;
  }

  /** Reads an inline part: shard i is inside the record {@code name} on slot {@code slots[i]}. */
  public PartReader inlineIn(String name) {
    loader.inlineIn(name);
    return this;
  }

  /** The read is kept: what it met so far counts, and warns, as any read's would. */
  public void confirm(StoreStats real) {
    loader.confirm(real);
  }

  /** Loads the first stripe, so that a read that cannot succeed fails before any byte is sent. */
  public PartReader open() {
    if (stripe <= lastStripe) {
      loadStripe();
    }
    return this;
  }

  @Override
  public int read() throws IOException {
    byte[] one = new byte[1];
    int got = read(one, 0, 1);
    return got < 0 ? -1 : one[0] & 0xFF;
  }

  @Override
  public int read(byte[] b, int off, int len) {
    if (len == 0) {
      return 0;
    }
    int count = lend(len);
    if (count == 0) {
      return -1;
    }
    System.arraycopy(lentArray, lentOffset, b, off, count);
    return count;
  }

  /**
   * The next run of this stripe's data straight out of the piece that holds it: pieces are fresh
   * arrays for every stripe (made by the sources, or here for reconstructed ones), so the caller
   * may keep it.
   */
  @Override
  public Chunk nextChunk() {
    int count = lend(Integer.MAX_VALUE);
    return count == 0 ? null : new Chunk(lentArray, lentOffset, count);
  }

  /**
   * Lends the next run of this stripe's data where it lies, in its piece, which this reader never
   * writes again (as {@link #nextChunk}): a sealed chunk that lies whole in it is opened from
   * there.
   */
  @Override
  public int lend(int max) {
    if (max <= 0) {
      return 0;
    }
    while (dataStart == dataEnd) {
      if (stripe > lastStripe) {
        return 0;
      }
      loadStripe();
    }
    int piece = dataStart / pieceLength;
    int at = dataStart - piece * pieceLength;
    int count = Math.min(max, Math.min(dataEnd - dataStart, pieceLength - at));
    lentArray = loader.pieces()[piece];
    lentOffset = at;
    dataStart += count;
    return count;
  }

  @Override
  public byte[] lentArray() {
    return lentArray;
  }

  @Override
  public int lentOffset() {
    return lentOffset;
  }

  private void loadStripe() {
    loader.load(stripe);
    long stripeStart = stripe * stripeBytes;
    int stripeLength = (int) Math.min(stripeBytes, part.sizeBytes() - stripeStart);
    this.pieceLength = part.pieceBytes(k, stripe);
    dataStart = (int) Math.max(0, from - stripeStart);
    dataEnd = (int) Math.min(stripeLength, to - stripeStart);
    stripe++;
  }

  /**
   * Takes the shard reads a cold GET started before it had the version's record ({@link
   * ShardGuess}): a source of this read whose shard the guess opened uses that stream, if this
   * reader reads the whole part (the guess opened whole objects).
   */
  public PartReader preopened(ShardGuess guess) {
    if (from == 0 && to == part.sizeBytes()) {
      loader.preopened(guess);
    }
    return this;
  }

  /**
   * Closes the shard reads, but for those a hedge left to watch until they answer or stall (see
   * {@link StripeLoader#close}).
   */
  @Override
  public void close() {
    loader.close();
  }
}
