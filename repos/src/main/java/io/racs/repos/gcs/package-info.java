/**
 * The {@code gcs} backend: a repository in one Google Cloud Storage bucket (optionally under a key
 * prefix), on GCS or the fake-gcs-server emulator, through {@code google-cloud-storage} over the
 * JSON API on HTTP ({@link io.racs.repos.gcs.GcsRepository}), with its settings ({@link
 * io.racs.repos.gcs.GcsOptions}) and how it authenticates ({@link
 * io.racs.repos.gcs.GcsCredentials}). It owns the object names, uploads, reads, retries and the one
 * translation of GCS errors into repository error kinds. The library's gRPC transport is left out
 * of the build: nothing here may reach for it.
 *
 * <p>It is the only package of this module that knows the GCS client; it must not know
 * configuration files or its callers.
 *
 * <p><b>What the emulator cannot show.</b> Its tests run on fake-gcs-server, which is weaker than
 * GCS in ways that these tests therefore do not cover:
 *
 * <ul>
 *   <li>It checks generation preconditions ({@code ifGenerationMatch}) on uploads only: a read or a
 *       delete with a precondition is served regardless. This backend sends none on those (it reads
 *       a pinned generation instead), but the emulator could not show one failing.
 *   <li>It keeps no old generations of a bucket without versioning, and serves a download from the
 *       content as it was when the request arrived, so a read of an object overwritten mid-stream
 *       cannot be made to break off there.
 *   <li>It answers every 404 with the bare "Not Found", for a missing bucket as for a missing
 *       object, which is why reads ask about the bucket on a miss; GCS's own message names the
 *       bucket but is not relied on either.
 *   <li>It never throttles (429, 503) nor fails, so the client's retries are not exercised; it
 *       takes any credentials or none, so authentication, 401 and 403 are not either.
 *   <li>It does not check the byte offsets of resumable chunks, nor expire sessions, so a resumed
 *       or abandoned upload is not tested against the service's rules; and it holds a whole
 *       resumable upload in memory until it is finalised.
 *   <li>It enforces none of GCS's name rules (1024 bytes, no CR or LF): the repository's own check
 *       is what the tests see.
 * </ul>
 */
package io.racs.repos.gcs;
