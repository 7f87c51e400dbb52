/**
 * What repository requests and bytes cost at a provider's prices: one provider's table ({@link
 * io.racs.repos.price.Prices}) and the tables of a repository set ({@link
 * io.racs.repos.price.PriceBook}, read from the {@code prices:} section of its file). The bench
 * prices its runs with them and {@code racs reshape plan} prices a reshape.
 */
package io.racs.repos.price;
