package net.beaconcontroller.core.test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;

import net.beaconcontroller.core.IOFSwitch;
import net.beaconcontroller.core.IRoleArbiter;
import net.beaconcontroller.openflow.OFBarrierRequest;
import net.beaconcontroller.openflow.OFMessage;
import net.beaconcontroller.openflow.vendor.NiciraRole;

/**
 * A cluster's arbiter as one member sees it at one moment: every switch in one role, every PACKET_IN handled. What a
 * SLAVE writes through the master is recorded and goes nowhere, as when it reaches a master the switch has just
 * demoted; a barrier through the master completes when the test completes {@link #masterBarrier}. Connect switches
 * with {@link FakeSwitch#answeringRoles()}.
 */
public final class FixedRole implements IRoleArbiter {
    public final NiciraRole role;
    /** What was written through the master, barrier requests included, in order. */
    public final List<OFMessage> forwarded = new CopyOnWriteArrayList<>();
    public final CompletableFuture<Void> masterBarrier = new CompletableFuture<>();

    public FixedRole(NiciraRole role) {
        this.role = role;
    }

    @Override
    public CompletionStage<NiciraRole> initialRole(IOFSwitch sw) {
        return CompletableFuture.completedFuture(role);
    }

    @Override
    public boolean handles(IOFSwitch sw, OFMessage msg) {
        return true;
    }

    @Override
    public void writeThroughMaster(IOFSwitch sw, OFMessage msg) {
        forwarded.add(msg);
    }

    @Override
    public CompletionStage<Void> barrierThroughMaster(IOFSwitch sw, Duration timeout) {
        forwarded.add(new OFBarrierRequest(0));
        return masterBarrier;
    }
}
