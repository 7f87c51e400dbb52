package io.racs.proxy.s3.handler;

import io.racs.proxy.s3.bridge.StoreBridge;
import io.racs.proxy.s3.route.S3Operation;
import java.io.IOException;

/**
 * Sends each request to the handler of its operation's family (bucket, listing, object, multipart);
 * the handlers reach the store only through the {@link StoreBridge}.
 */
public final class S3Dispatcher {
  private final BucketHandler buckets;
  private final ListingHandler listings;
  private final ObjectHandler objects;
  private final MultipartHandler multipart;
  private final CorsHandler cors;

  /** Dispatches to handlers over {@code store}, answering location queries with {@code region}. */
  public S3Dispatcher(StoreBridge store, String region) {
    this.buckets = new BucketHandler(store, region);
    this.listings = new ListingHandler(store);
    this.objects = new ObjectHandler(store);
    this.multipart = new MultipartHandler(store);
    this.cors = new CorsHandler(store);
  }

  /**
   * Handles one request; failures are {@code S3Exception}s (or I/O errors of the body). A served
   * request that carries an {@code Origin} gets the CORS headers of its bucket's matching rule.
   */
  public S3Response handle(S3Request request) throws IOException {
    S3Response response =
        switch (request.route().operation().family()) {
          case BUCKET -> buckets.handle(request);
          case LISTING -> listings.handle(request);
          case OBJECT -> objects.handle(request);
          case MULTIPART -> multipart.handle(request);
          case CORS -> cors.handle(request);
        };
    if (request.route().operation() == S3Operation.PREFLIGHT_CORS) {
      return response;
    }
    return cors.decorate(request, response);
  }
}
