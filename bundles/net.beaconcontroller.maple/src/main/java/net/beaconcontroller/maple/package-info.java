/**
 * Maple-style algorithmic policies (Voellmy et al., SIGCOMM 2013): an application writes a {@link
 * net.beaconcontroller.maple.Policy}, an ordinary function from a {@link net.beaconcontroller.maple.Packet} and an
 * {@link net.beaconcontroller.maple.Environment} to a {@link net.beaconcontroller.maple.Route}; Beacon records what
 * the function read and tested, merges those traces into a trace tree and compiles the tree into OpenFlow 1.0 flow
 * tables with wildcard rules. See {@code docs/maple.md}.
 */
package net.beaconcontroller.maple;
