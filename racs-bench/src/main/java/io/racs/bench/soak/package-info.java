/**
 * The verdict of scripts/soak.sh: whether the proxy answered a long steady load without a wrong
 * answer or an error, and without growing after warm-up ({@code racs bench soak-verdict}).
 */
package io.racs.bench.soak;
