/**
 * The on-repository format, the lowest tier of the store: how everything stored is named ({@code
 * Layout}), version ids ({@code VersionId}), and the records themselves: a version ({@code
 * VersionMeta}), its parts ({@code PartMeta}), an uploaded part ({@code PartRecord}), and the
 * encryption a version was sealed with ({@code SealRecord}, {@code Sealing}).
 *
 * <p>Depends on nothing else of the store: every other tier reads and writes these records.
 */
package io.racs.proxy.store.format;
