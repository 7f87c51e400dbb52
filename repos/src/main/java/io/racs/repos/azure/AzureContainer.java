package io.racs.repos.azure;

import com.azure.storage.blob.BlobContainerClient;
import com.azure.storage.blob.models.BlobErrorCode;
import com.azure.storage.blob.models.BlobStorageException;
import io.racs.repos.OnFirstCall;
import io.racs.repos.RepositoryException;
import io.racs.repos.RepositoryException.Kind;

/**
 * The container of one {@link AzureRepository}: whether it exists ({@link #probe()}), the one
 * message for a missing container ({@link #missing}), and, with {@link
 * AzureOptions#createContainer()}, its creation by the repository's first call.
 *
 * <p>Creation happens once ({@link OnFirstCall}): the first call that finds the container present,
 * or creates it, settles the question, so a container deleted later reads as missing storage
 * ({@code UNAVAILABLE}). Thread-safe.
 */
final class AzureContainer {
  private final String repository;
  private final String container;
  private final BlobContainerClient client;
  private final OnFirstCall creation;

  AzureContainer(String repository, AzureOptions options, BlobContainerClient client) {
    this.repository = repository;
    this.container = options.container();
    this.client = client;
    this.creation =
        options.createContainer() ? OnFirstCall.of(this::createIfMissing) : OnFirstCall.none();
  }

  /** Before every call: creates the container if asked and not yet settled; cheap afterwards. */
  void ensure() {
    creation.ensure();
  }

  private void createIfMissing() {
    try {
      client.create();
    } catch (BlobStorageException e) {
      // Present already, or another proxy of the array created it at the same moment.
      if (!BlobErrorCode.CONTAINER_ALREADY_EXISTS.equals(e.getErrorCode())) {
        throw AzureErrors.translate(repository, e, "create container " + container, "");
      }
    } catch (RuntimeException e) {
      throw AzureErrors.translate(repository, e, "create container " + container, "");
    }
  }

  /** One cheap request: Get Container Properties; a missing container is {@link #missing}. */
  void probe() {
    ensure();
    try {
      client.getProperties();
    } catch (BlobStorageException e) {
      if (e.getStatusCode() == 404) {
        throw missing(e);
      }
      throw AzureErrors.translate(repository, e, "probe", "");
    } catch (RuntimeException e) {
      throw AzureErrors.translate(repository, e, "probe", "");
    }
  }

  /** The failure of every call in a missing container: {@code UNAVAILABLE}, naming it. */
  RepositoryException missing(Throwable cause) {
    return new RepositoryException(
        Kind.UNAVAILABLE,
        repository
            + ": container "
            + container
            + " does not exist (deleted, or never created; 'create: true' creates a missing"
            + " container at start-up)",
        cause);
  }
}
