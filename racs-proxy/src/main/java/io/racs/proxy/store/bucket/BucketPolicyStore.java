package io.racs.proxy.store.bucket;

import io.racs.proxy.store.api.BucketPolicies;
import java.util.Optional;

/** {@link BucketPolicies} as the {@link BucketDocuments.Kind#POLICY} documents. */
public final class BucketPolicyStore implements BucketPolicies {
  private final BucketDocuments documents;

  public BucketPolicyStore(BucketDocuments documents) {
    this.documents = documents;
  }

  @Override
  public void put(String bucket, String policy) {
    documents.set(BucketDocuments.Kind.POLICY, bucket, policy);
  }

  @Override
  public Optional<String> get(String bucket) {
    return documents.get(BucketDocuments.Kind.POLICY, bucket);
  }

  @Override
  public Optional<String> getRecently(String bucket) {
    return documents.getRecently(BucketDocuments.Kind.POLICY, bucket);
  }

  @Override
  public void delete(String bucket) {
    documents.change(BucketDocuments.Kind.POLICY, bucket, null);
  }
}
