package io.racs.proxy.store.object;

import io.racs.proxy.crypto.CustomerKey;
import io.racs.proxy.crypto.DataKey;
import io.racs.proxy.crypto.Keyring;
import io.racs.proxy.crypto.OpeningInputStream;
import io.racs.proxy.crypto.SealedLayout;
import io.racs.proxy.crypto.TamperedDataException;
import io.racs.proxy.crypto.WrappedKey;
import io.racs.proxy.store.api.StoreException;
import io.racs.proxy.store.format.PartMeta;
import io.racs.proxy.store.format.SealRecord;
import io.racs.proxy.store.format.Sealing;
import java.io.IOException;
import java.io.InputStream;
import java.security.SecureRandom;
import java.util.Base64;

/**
 * Starts and opens sealed versions: makes a data key for a write and the {@link SealRecord} that
 * keeps it (wrapped), and unwraps it again for a read, with the customer's key when the version
 * needs one. The one place the store decides whether a read may see a sealed version's bytes.
 */
final class ObjectSealing {
  private static final SecureRandom RANDOM = new SecureRandom();

  /** A write's data key and the record that keeps it. */
  record Sealed(SealRecord record, DataKey key) {}

  private ObjectSealing() {}

  /** A new data key for a write asking for {@code sealing}; null when it asks for none. */
  static Sealed begin(Sealing sealing, Keyring keys) {
    return switch (sealing) {
      case Sealing.None none -> null;
      case Sealing.S3Managed s3 -> {
        if (keys == null) {
          throw new StoreException(
              StoreException.Code.ENCRYPTION_NOT_CONFIGURED,
              "server-side encryption asked for, but this proxy has no master key configured");
        }
        DataKey key = DataKey.generate();
        yield new Sealed(
            new SealRecord(
                SealRecord.SSE_S3, keys.wrap(key.key()).encode(), key.baseNonce(), null, null),
            key);
      }
      case Sealing.Customer customer -> {
        DataKey key = DataKey.generate();
        byte[] salt = new byte[16];
        RANDOM.nextBytes(salt);
        Base64.Encoder b64 = Base64.getEncoder();
        yield new Sealed(
            new SealRecord(
                SealRecord.SSE_C,
                customer.key().wrap(key.key()).encode(),
                key.baseNonce(),
                b64.encodeToString(salt),
                b64.encodeToString(customer.key().verifier(salt))),
            key);
      }
    };
  }

  /**
   * The data key of a sealed version or upload, for a reader holding {@code customerKey} (null when
   * the request carried none); null when {@code encryption} is null (nothing sealed). A version
   * sealed with a customer's key needs that key; one sealed by the proxy needs none, and refuses
   * one.
   */
  static DataKey open(SealRecord encryption, CustomerKey customerKey, Keyring keys, String what) {
    if (encryption == null) {
      if (customerKey != null) {
        throw new StoreException(
            StoreException.Code.ENCRYPTION_MISMATCH,
            what + " is not encrypted with a customer-provided key");
      }
      return null;
    }
    try {
      WrappedKey wrapped = WrappedKey.decode(encryption.wrappedKey());
      if (encryption.customer()) {
        if (customerKey == null) {
          throw new StoreException(
              StoreException.Code.CUSTOMER_KEY_REQUIRED,
              what + " is encrypted with a customer-provided key, and none was given");
        }
        Base64.Decoder b64 = Base64.getDecoder();
        if (!customerKey.matches(
            b64.decode(encryption.salt()), b64.decode(encryption.verifier()))) {
          throw new StoreException(
              StoreException.Code.CUSTOMER_KEY_MISMATCH,
              what + " is encrypted with another customer-provided key");
        }
        return DataKey.of(customerKey.unwrap(wrapped), encryption.baseNonce());
      }
      if (customerKey != null) {
        throw new StoreException(
            StoreException.Code.ENCRYPTION_MISMATCH,
            what + " is not encrypted with a customer-provided key");
      }
      if (keys == null) {
        throw new StoreException(
            StoreException.Code.ENCRYPTION_NOT_CONFIGURED,
            what + " is encrypted, and this proxy has no master key configured");
      }
      return DataKey.of(keys.unwrap(wrapped), encryption.baseNonce());
    } catch (TamperedDataException | IllegalArgumentException e) {
      throw new StoreException(
          StoreException.Code.INCONSISTENT, "the data key of " + what + " does not open: " + e, e);
    }
  }

  /**
   * Plaintext {@code [from, to)} of one sealed part, given an opener of its sealed bytes {@code
   * [sealedFrom, sealedTo)}. The first chunk is opened and authenticated now, so that a part that
   * fails authentication fails the read before a byte is sent.
   */
  static InputStream openRange(
      DataKey key, PartMeta part, long from, long to, SealedReader sealedReader) {
    long plain = SealedLayout.plainLength(part.sizeBytes());
    SealedLayout.Span span = SealedLayout.span(from, to - from, plain);
    InputStream sealed =
        sealedReader.open(span.sealedOffset(), span.sealedOffset() + span.sealedLength());
    OpeningInputStream opening =
        new OpeningInputStream(sealed, key.sealer(part.partNumber()), span, plain, to - from);
    try {
      return opening.prefetch();
    } catch (TamperedDataException e) {
      closeQuietly(opening);
      throw new StoreException(
          StoreException.Code.INCONSISTENT, "part " + part.partNumber() + ": " + e.getMessage(), e);
    } catch (IOException e) {
      closeQuietly(opening);
      throw new StoreException(StoreException.Code.INSUFFICIENT_SHARDS, e.toString(), e);
    } catch (RuntimeException e) {
      closeQuietly(opening);
      throw e;
    }
  }

  /** Opens sealed bytes {@code [from, to)} of a part. */
  @FunctionalInterface
  interface SealedReader {
    InputStream open(long from, long to);
  }

  private static void closeQuietly(InputStream in) {
    try {
      in.close();
    } catch (IOException ignored) {
      // Nothing was handed out.
    }
  }
}
