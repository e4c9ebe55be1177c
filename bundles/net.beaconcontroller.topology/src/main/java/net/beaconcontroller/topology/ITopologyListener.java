package net.beaconcontroller.topology;

/**
 * Told about link changes: publish it as an OSGi service and the topology picks it up. Calls come from the thread
 * that noticed the change (a switch's I/O thread or the topology's timer) and must not block.
 */
public interface ITopologyListener {
    void linkAdded(Link link);

    void linkRemoved(Link link);
}
