package io.racs.proxy.store.object;

import io.racs.proxy.crypto.Keyring;
import io.racs.proxy.crypto.WrappedKey;
import io.racs.proxy.store.api.StoreException;
import io.racs.proxy.store.array.StoreContext;
import io.racs.proxy.store.format.Layout;
import io.racs.proxy.store.format.SealRecord;
import io.racs.proxy.store.format.UploadRecord;
import io.racs.proxy.store.format.VersionMeta;
import io.racs.repos.ListPage;
import io.racs.repos.ObjectInfo;
import io.racs.repos.ObjectStream;
import io.racs.repos.Repository;
import io.racs.repos.RepositoryException;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.Consumer;

/**
 * Re-wraps the data keys of SSE-S3 versions and uploads with the current master key, without
 * touching their data: {@code racs keys rotate}. Each repository's copy of each record is rewritten
 * on its own (a record differs per repository only in the inline shard it may carry, which is kept
 * as it is), so a repository that is down keeps its old wrapping: the report says so, and the
 * previous key must stay configured until a later rotation reached every repository.
 *
 * <p>Records are otherwise never rewritten; this one rewrite keeps their meaning (the same data
 * key), so a reader holding either the old or the new record opens the same bytes as long as both
 * keys are configured.
 */
public final class KeyRotation {
  /**
   * What a rotation did.
   *
   * @param rewrapped records whose data key was wrapped again with the current key
   * @param alreadyCurrent SSE-S3 records already wrapped with it
   * @param failed records (or repositories) that could not be read or written, with why
   */
  public record Report(long rewrapped, long alreadyCurrent, List<String> failed) {}

  private KeyRotation() {}

  public static Report rotate(StoreContext context, boolean dryRun, Consumer<String> progress) {
    Keyring keys = context.config.keys();
    if (keys == null) {
      throw new StoreException(
          StoreException.Code.ENCRYPTION_NOT_CONFIGURED,
          "no master key is configured to rotate to");
    }
    long rewrapped = 0;
    long current = 0;
    List<String> failed = new ArrayList<>();
    for (int slot : context.array.ids()) {
      Repository repository = context.array.slot(slot);
      for (String prefix : List.of("i/", "u/")) {
        String after = "";
        try {
          while (true) {
            ListPage page = repository.list(prefix, after, 1000);
            for (ObjectInfo info : page.objects()) {
              after = info.key();
              if (prefix.equals("u/") && isPartRecord(info.key())) {
                continue;
              }
              try {
                switch (rewrap(repository, info.key(), prefix.equals("i/"), keys, dryRun)) {
                  case REWRAPPED -> rewrapped++;
                  case CURRENT -> current++;
                  case NOT_SSE_S3 -> {}
                }
              } catch (RepositoryException | IOException e) {
                failed.add(repository.name() + " " + info.key() + ": " + e.getMessage());
              }
            }
            if (!page.truncated() || page.objects().isEmpty()) {
              break;
            }
          }
        } catch (RepositoryException e) {
          failed.add(repository.name() + ": cannot list " + prefix + ": " + e.getMessage());
        }
      }
      progress.accept(
          repository.name()
              + ": "
              + rewrapped
              + " re-wrapped so far, "
              + failed.size()
              + " failed");
    }
    return new Report(rewrapped, current, List.copyOf(failed));
  }

  private enum Outcome {
    REWRAPPED,
    CURRENT,
    NOT_SSE_S3
  }

  private static boolean isPartRecord(String name) {
    int slash = name.lastIndexOf('/');
    return slash >= 0 && name.length() - slash == 7 && name.charAt(slash + 1) == 'p';
  }

  private static Outcome rewrap(
      Repository repository, String name, boolean version, Keyring keys, boolean dryRun)
      throws IOException {
    byte[] stored;
    try (ObjectStream in = repository.get(name)) {
      stored = in.readAllBytes();
    }
    SealRecord encryption;
    Object record;
    if (version) {
      Optional<VersionMeta> meta = Layout.decode(stored, VersionMeta.class);
      if (meta.isEmpty()) {
        throw new IOException("damaged record (heal restores it)");
      }
      record = meta.get();
      encryption = meta.get().encryption();
    } else {
      Optional<UploadRecord> upload = Layout.decode(stored, UploadRecord.class);
      if (upload.isEmpty()) {
        throw new IOException("damaged record (heal restores it)");
      }
      record = upload.get();
      encryption = upload.get().encryption();
    }
    if (encryption == null || !encryption.mode().equals(SealRecord.SSE_S3)) {
      return Outcome.NOT_SSE_S3;
    }
    WrappedKey wrapped = WrappedKey.decode(encryption.wrappedKey());
    if (wrapped.keyId().equals(keys.current().id())) {
      return Outcome.CURRENT;
    }
    SealRecord again =
        new SealRecord(
            encryption.mode(),
            keys.wrap(keys.unwrap(wrapped)).encode(),
            encryption.baseNonce(),
            encryption.salt(),
            encryption.verifier());
    if (dryRun) {
      return Outcome.REWRAPPED;
    }
    Object updated =
        record instanceof VersionMeta meta
            ? meta.withEncryption(again)
            : ((UploadRecord) record).withEncryption(again);
    OptionalInt inline = Layout.inlineLength(stored);
    byte[] bytes;
    if (inline.isPresent()) {
      int from = Layout.inlineOffset(inline.getAsInt());
      byte[] shard = java.util.Arrays.copyOfRange(stored, from, from + inline.getAsInt());
      bytes = Layout.encodeInline(updated, shard);
    } else {
      bytes = Layout.encode(updated);
    }
    repository.put(name, new ByteArrayInputStream(bytes), bytes.length);
    return Outcome.REWRAPPED;
  }
}
