package io.racs.repos;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.racs.testkit.SeededBytes;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * Proves that {@link Bodies#checked}'s {@code transferTo} — the path a backend takes to have the
 * body write its own arrays — keeps the checks of {@code read}: exact length, short and long bodies
 * and body failures as {@code UNEXPECTED} repository errors, while a failure of the backend's own
 * sink comes out unchanged (it is the storage's problem, not the caller's).
 */
class BodiesTest {
  private static final byte[] TEN = SeededBytes.bytes(20261124L, 10);

  @Test
  void transferTo_whenLengthMatches_writesEveryByte() throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    long n = Bodies.checked(new ByteArrayInputStream(TEN), 10, "r", "k").transferTo(out);
    assertThat(n).isEqualTo(10);
    assertThat(out.toByteArray()).isEqualTo(TEN);
  }

  @Test
  void transferTo_whenLengthUnknown_writesUntilTheEnd() throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    long n = Bodies.checked(pieces(TEN, 3), -1, "r", "k").transferTo(out);
    assertThat(n).isEqualTo(10);
    assertThat(out.toByteArray()).isEqualTo(TEN);
  }

  @Test
  void transferTo_afterReads_countsTheBytesAlreadyRead() throws IOException {
    InputStream body = Bodies.checked(pieces(TEN, 4), 10, "r", "k");
    byte[] head = new byte[3];
    assertThat(body.read(head)).isEqualTo(3);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    assertThat(body.transferTo(out)).isEqualTo(7);
    assertThat(out.toByteArray()).isEqualTo(Arrays.copyOfRange(TEN, 3, 10));
    assertThat(body.transferTo(out)).isZero(); // ended
  }

  @Test
  void transferTo_whenBodyLonger_failsWithoutPassingOnMoreThanTheLength() {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    assertThatThrownBy(() -> Bodies.checked(pieces(TEN, 4), 9, "r", "k").transferTo(out))
        .isInstanceOfSatisfying(
            RepositoryException.class,
            e -> {
              assertThat(e.kind()).isEqualTo(RepositoryException.Kind.UNEXPECTED);
              assertThat(e).hasMessageContaining("longer than lengthBytes");
            });
    assertThat(out.size()).isLessThanOrEqualTo(9);
  }

  @Test
  void transferTo_whenBodyShorter_failsNamingTheCount() {
    assertThatThrownBy(
            () ->
                Bodies.checked(new ByteArrayInputStream(TEN), 11, "r", "k")
                    .transferTo(new ByteArrayOutputStream()))
        .isInstanceOfSatisfying(
            RepositoryException.class,
            e -> {
              assertThat(e.kind()).isEqualTo(RepositoryException.Kind.UNEXPECTED);
              assertThat(e).hasMessageContaining("ended after 10 bytes (expected: 11)");
            });
  }

  @Test
  void transferTo_whenBodyThrows_reportsTheBodyWithItsCause() {
    IOException boom = new IOException("client went away");
    InputStream failing =
        new InputStream() {
          @Override
          public int read() throws IOException {
            throw boom;
          }
        };
    assertThatThrownBy(
            () -> Bodies.checked(failing, 5, "r", "k").transferTo(new ByteArrayOutputStream()))
        .isInstanceOfSatisfying(
            RepositoryException.class,
            e -> {
              assertThat(e.kind()).isEqualTo(RepositoryException.Kind.UNEXPECTED);
              assertThat(e).hasRootCause(boom);
            });
  }

  @Test
  void transferTo_whenSinkFails_throwsTheSinksOwnException() {
    IOException full = new IOException("no space left on device");
    assertThatThrownBy(() -> Bodies.checked(pieces(TEN, 4), 10, "r", "k").transferTo(failing(full)))
        .isSameAs(full);
  }

  @Test
  void transferTo_whenBodyWrapsTheSinksFailure_stillThrowsTheSinksOwnException() {
    IOException full = new IOException("no space left on device");
    InputStream wrapping =
        new ByteArrayInputStream(TEN) {
          @Override
          public synchronized long transferTo(OutputStream out) throws IOException {
            try {
              return super.transferTo(out);
            } catch (RuntimeException e) {
              throw new IOException("transfer failed", e);
            }
          }
        };
    assertThatThrownBy(() -> Bodies.checked(wrapping, 10, "r", "k").transferTo(failing(full)))
        .isSameAs(full);
  }

  /** A body that writes {@code data} in writes of {@code size} bytes. */
  private static InputStream pieces(byte[] data, int size) {
    return new ByteArrayInputStream(data) {
      @Override
      public synchronized long transferTo(OutputStream out) throws IOException {
        long total = 0;
        while (pos < count) {
          int n = Math.min(size, count - pos);
          out.write(buf, pos, n);
          pos += n;
          total += n;
        }
        return total;
      }
    };
  }

  private static OutputStream failing(IOException failure) {
    return new OutputStream() {
      @Override
      public void write(int b) throws IOException {
        throw failure;
      }

      @Override
      public void write(byte[] b, int off, int len) throws IOException {
        throw failure;
      }
    };
  }
}
