package io.racs.proxy.crypto;

import java.io.IOException;

/**
 * Input that can lend its next bytes where they already lie instead of copying them out: an {@link
 * OpeningInputStream} over such input opens a chunk that lies whole in one lent run straight from
 * it, and gathers only the chunks that straddle two runs. Lending and reading may be mixed; each
 * byte is handed out once, either way.
 */
public interface LendingInput {
  /**
   * Lends up to {@code max} of the next bytes: they lie at {@link #lentArray()} from {@link
   * #lentOffset()}, and stay there unchanged (the lender never writes to that array again).
   *
   * @return how many bytes were lent: at least 1 if {@code max} is positive and the input has not
   *     ended, 0 at its end
   */
  int lend(int max) throws IOException;

  /** The array of the last {@link #lend}. */
  byte[] lentArray();

  /** Where the last {@link #lend}'s bytes start in {@link #lentArray()}. */
  int lentOffset();
}
