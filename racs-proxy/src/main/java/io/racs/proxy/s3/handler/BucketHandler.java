package io.racs.proxy.s3.handler;

import io.racs.proxy.s3.authz.Access;
import io.racs.proxy.s3.bridge.Bucket;
import io.racs.proxy.s3.bridge.StoreBridge;
import io.racs.proxy.s3.error.S3ErrorCode;
import io.racs.proxy.s3.error.S3Exception;
import io.racs.proxy.s3.xml.CreateBucketRequest;
import io.racs.proxy.s3.xml.S3XmlResponses;
import io.racs.proxy.s3.xml.VersioningRequest;
import io.racs.proxy.s3.xml.XmlModel;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/** The bucket family: list, create, delete, head, location. */
final class BucketHandler {
  private final StoreBridge store;
  private final String region;

  BucketHandler(StoreBridge store, String region) {
    this.store = store;
    this.region = region;
  }

  S3Response handle(S3Request request) throws IOException {
    return switch (request.route().operation()) {
      case LIST_BUCKETS -> list(request);
      case CREATE_BUCKET -> create(request);
      case DELETE_BUCKET -> {
        store.deleteBucket(request.bucket());
        yield S3Response.status(204);
      }
      case HEAD_BUCKET -> head(request);
      case GET_BUCKET_LOCATION -> location(request);
      case PUT_BUCKET_VERSIONING -> putVersioning(request);
      case GET_BUCKET_VERSIONING ->
          S3Response.xml(
              S3XmlResponses.versioningConfiguration(store.versioningStatus(request.bucket())));
      default -> throw S3Exception.of(S3ErrorCode.NOT_IMPLEMENTED);
    };
  }

  /**
   * ListBuckets: every bucket, or (without {@code s3:ListAllMyBuckets}) those the caller may list;
   * none of them is AccessDenied, as MinIO answers.
   */
  private S3Response list(S3Request request) {
    List<XmlModel.BucketEntry> buckets = new ArrayList<>();
    boolean all = request.access().listsAllBuckets();
    for (Bucket b : store.listBuckets()) {
      if (all || request.access().listsBucket(b.name())) {
        buckets.add(new XmlModel.BucketEntry(b.name(), b.created()));
      }
    }
    if (!all && buckets.isEmpty()) {
      throw Access.denied();
    }
    return S3Response.xml(S3XmlResponses.listBuckets(Responses.OWNER, buckets));
  }

  private S3Response create(S3Request request) throws IOException {
    byte[] body = ObjectHandler.readXml(request);
    if (body.length > 0) {
      CreateBucketRequest.parse(body); // validates; any location is served here
    }
    boolean objectLock =
        request
            .headers()
            .first("x-amz-bucket-object-lock-enabled")
            .map(v -> v.strip().equalsIgnoreCase("true"))
            .orElse(false);
    if (objectLock) {
      store.locks().createLockedBucket(request.bucket());
    } else {
      store.createBucket(request.bucket());
    }
    return S3Response.status(200).header("Location", "/" + request.bucket());
  }

  private S3Response head(S3Request request) {
    if (!store.bucketExists(request.bucket())) {
      throw S3Exception.of(S3ErrorCode.NO_SUCH_BUCKET).withResource("/" + request.bucket());
    }
    return S3Response.status(200).header("x-amz-bucket-region", region);
  }

  /**
   * PutBucketVersioning: {@code Enabled} turns versioning on; {@code Suspended} suspends it (later
   * writes are each key's null version, replacing the one before; versions with ids stay). A bucket
   * once versioned is never unversioned again, as in S3.
   */
  private S3Response putVersioning(S3Request request) throws IOException {
    String status = VersioningRequest.parse(ObjectHandler.readXml(request));
    if (status.equals("Enabled")) {
      store.enableVersioning(request.bucket());
    } else {
      store.suspendVersioning(request.bucket());
    }
    return S3Response.status(200);
  }

  private S3Response location(S3Request request) {
    if (!store.bucketExists(request.bucket())) {
      throw S3Exception.of(S3ErrorCode.NO_SUCH_BUCKET).withResource("/" + request.bucket());
    }
    return S3Response.xml(S3XmlResponses.locationConstraint(region));
  }
}
