package net.beaconcontroller.core;

/**
 * State that applications share with the other instances of a cluster. The cluster bundle publishes it as an OSGi
 * service while this instance is a member; without a cluster there is none, and applications keep what they learn to
 * themselves. An application that finds it writes what it learns (topology its links, the device manager its hosts)
 * and takes in what the other members wrote, so every member sees the whole network.
 *
 * <p>Keys are strings and values bytes the application encodes itself: the members never load an application's
 * classes, so an application can be updated or stopped on one member without the others noticing.
 */
public interface ISharedState {
    /** The map called {@code name}, the same on every member; prefix the name with the application's. */
    SharedMap map(String name);

    /**
     * Milliseconds since the epoch as the members agree on them (to within a few milliseconds, whatever their own
     * clocks say): what a timestamp written by one member and read by another is measured in.
     */
    long clusterTimeMillis();
}
