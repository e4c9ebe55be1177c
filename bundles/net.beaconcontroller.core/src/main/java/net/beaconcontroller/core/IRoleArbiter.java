package net.beaconcontroller.core;

import java.time.Duration;
import java.util.concurrent.CompletionStage;

import net.beaconcontroller.openflow.OFMessage;
import net.beaconcontroller.openflow.vendor.NiciraRole;

/**
 * Decides this controller's role on each switch when several controllers share the switches (a cluster, see
 * {@code net.beaconcontroller.cluster}); the controller uses the one published as an OSGi service. Without one,
 * Beacon is the only controller of its switches and never sends a role request.
 *
 * <p>What the controller does for it: during the handshake it asks the switch for {@link #initialRole} (Nicira role
 * request) before anything touches the flow table, and reconciles the switch's flows (see {@link IFlowReconciler})
 * only as {@code MASTER}, at the connection and whenever it becomes master later; a
 * {@code SLAVE} switch's PACKET_IN and FLOW_REMOVED never reach listeners, and a flow table change or packet an
 * application writes to it goes to {@link #writeThroughMaster} instead of the switch (which would refuse it).
 */
public interface IRoleArbiter {
    /**
     * The role to ask a connecting switch for. Called on the switch's I/O thread, which it must not block; a stage
     * that fails disconnects the switch. Only for a connection that holds its DPID: one refused it, because another
     * live connection has the switch, is closed before it gets here.
     */
    CompletionStage<NiciraRole> initialRole(IOFSwitch sw);

    /**
     * Whether this controller handles a PACKET_IN or FLOW_REMOVED from a switch it is not {@code SLAVE} of: while a
     * switch moves between controllers both receive its messages, and each must take only its share. Called on the
     * switch's I/O thread for every such message before the listeners see it; it must be cheap.
     */
    boolean handles(IOFSwitch sw, OFMessage msg);

    /**
     * A FLOW_MOD, PACKET_OUT or PORT_MOD an application wrote to a switch this controller is {@code SLAVE} of: send it
     * through the switch's master. Any thread; the message may hold a view of a read buffer valid only during the
     * call.
     */
    void writeThroughMaster(IOFSwitch sw, OFMessage msg);

    /**
     * A barrier an application asked of a switch this controller is {@code SLAVE} of: completes once the switch has
     * processed everything {@link #writeThroughMaster} was given for it before this call, or fails after
     * {@code timeout}. {@link IOFSwitch#barrier} waits for it as well as for its own connection. Any thread.
     */
    CompletionStage<Void> barrierThroughMaster(IOFSwitch sw, Duration timeout);
}
