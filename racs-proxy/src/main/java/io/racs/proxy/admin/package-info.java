/**
 * The admin port: health ({@code /health/live}, {@code /health/ready}), Prometheus metrics ({@code
 * /metrics}, kept and written by the Prometheus client library in {@link
 * io.racs.proxy.admin.MetricsReport}'s own registry), the operator's console ({@code /console}) and
 * the admin API ({@code /admin/users}). {@link io.racs.proxy.admin.AdminServer} serves what {@link
 * io.racs.proxy.admin.AdminSources} tells it of the running proxy; the runtime starts it and this
 * package never reaches back into the runtime. Nothing here is served on the S3 port.
 */
package io.racs.proxy.admin;
