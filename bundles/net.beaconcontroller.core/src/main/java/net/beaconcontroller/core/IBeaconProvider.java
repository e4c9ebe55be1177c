package net.beaconcontroller.core;

import java.util.List;
import java.util.Map;

import net.beaconcontroller.openflow.OFType;

/**
 * The controller, as applications see it: published in the OSGi service registry by the core bundle.
 *
 * <p>Applications normally publish their listeners as OSGi services (the whiteboard, see {@link BeaconListener}):
 * the controller adds them when they appear and removes them when their bundle stops. The {@code add...}/{@code
 * remove...} methods do the same by hand, as Beacon 1.0 applications did. Once a listener has left, it is not called
 * again: removal waits until no I/O thread is still inside a dispatch that began before it (unless it is called from
 * an I/O thread, which cannot wait for itself).
 */
public interface IBeaconProvider {
    void addOFMessageListener(OFType type, IOFMessageListener listener);

    void removeOFMessageListener(OFType type, IOFMessageListener listener);

    void addOFSwitchListener(IOFSwitchListener listener);

    void removeOFSwitchListener(IOFSwitchListener listener);

    void addOFInitializerListener(IOFInitializerListener listener);

    void removeOFInitializerListener(IOFInitializerListener listener);

    /** The active switches by datapath id: a live, read-only view. */
    Map<Long, IOFSwitch> getSwitches();

    /** The names of the listeners of one message type, in the order they see its messages. */
    List<String> getPipeline(OFType type);

    /** What every message listener has done so far, pipeline by pipeline in their order. */
    List<ListenerStats> getListenerStats();

    /** The I/O threads, each with its switches and how busy it is. */
    List<IoLoopStats> getIoLoopStats();

    /** What flow reconciliation (see {@link IFlowReconciler}) has done so far. */
    FlowReconciliationStats getFlowReconciliationStats();

    /**
     * Drops {@code key}'s value from every switch, each on its own I/O thread, and returns once they are gone: what an
     * application does when it stops, so no state of its class loader stays behind.
     */
    void clearLocal(SwitchLocal<?> key);
}
