package io.racs.repos.config;

import io.racs.repos.Repository;
import io.racs.repos.azure.AzureRepository;
import io.racs.repos.decorator.FaultyRepository;
import io.racs.repos.decorator.LatencyRepository;
import io.racs.repos.decorator.MeteredRepository;
import io.racs.repos.fs.FsRepository;
import io.racs.repos.gcs.GcsRepository;
import io.racs.repos.memory.MemoryRepository;
import io.racs.repos.s3.S3Repository;
import io.racs.repos.sftp.SftpRepository;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Builds {@link Repository} instances from configuration: the backend, then each decorator around
 * the previous one, in list order. Building does no I/O (see the {@link Repository} lifecycle).
 */
public final class RepositoryFactory {
  private RepositoryFactory() {}

  /** Builds one configured repository. */
  public static Repository create(RepositoryConfig config) {
    Repository repository =
        switch (config.backend()) {
          case BackendConfig.Fs fs ->
              FsRepository.builder(fs.path()).name(config.name()).durable(fs.durable()).build();
          case BackendConfig.S3 s3 -> S3Repository.create(config.name(), s3.options());
          case BackendConfig.Azure azure -> AzureRepository.create(config.name(), azure.options());
          case BackendConfig.Gcs gcs -> GcsRepository.create(config.name(), gcs.options());
          case BackendConfig.Sftp sftp -> SftpRepository.create(config.name(), sftp.options());
          case BackendConfig.Memory memory -> MemoryRepository.create(config.name());
        };
    for (DecoratorConfig decorator : config.decorators()) {
      repository =
          switch (decorator) {
            case DecoratorConfig.Latency latency ->
                new LatencyRepository(
                    repository,
                    latency.request(),
                    latency.response(),
                    latency.late(),
                    latency.seed());
            case DecoratorConfig.Faulty faulty -> {
              FaultyRepository f =
                  new FaultyRepository(repository)
                      .outage(faulty.outage())
                      .corruptReads(faulty.corruptReads());
              faulty.failKeys().ifPresent(p -> f.failKeys(p, faulty.kind()));
              faulty.failCall().ifPresent(n -> f.failCall(n, faulty.kind()));
              if (faulty.failRate() > 0) {
                f.failRandomly(faulty.failRate(), faulty.seed(), faulty.kind());
              }
              yield f;
            }
            case DecoratorConfig.Metered metered -> new MeteredRepository(repository);
          };
    }
    return repository;
  }

  /** Builds every repository of a set, by name, in file order. */
  public static Map<String, Repository> createAll(RepositorySetConfig set) {
    Map<String, Repository> repositories = new LinkedHashMap<>();
    for (RepositoryConfig config : set.repositories()) {
      repositories.put(config.name(), create(config));
    }
    return repositories;
  }
}
