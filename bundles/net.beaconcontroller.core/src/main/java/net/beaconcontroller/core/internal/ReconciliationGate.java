package net.beaconcontroller.core.internal;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import net.beaconcontroller.openflow.OFFlowMod;
import net.beaconcontroller.openflow.OFMessage;
import net.beaconcontroller.openflow.OFStatsRequest;
import net.beaconcontroller.openflow.OFStatsReply;
import net.beaconcontroller.openflow.statistics.OFFlowStatsRequest;

/**
 * A switch connection's side of flow reconciliation: the flow table read under one {@link Mastership}, the flows
 * written since (so that a strict delete never takes off a flow written after the read), and the reconciliation's own
 * writes, which go to the switch only while that mastership holds. The memory of written flows is confined to the
 * connection's I/O thread, where every write to the switch lands; the methods called by the reconciliation thread
 * hand their work to it.
 */
final class ReconciliationGate {
    private final SwitchConnection sw;
    /** While a reconciliation reads and writes the flow table: the flows written since its request. Loop thread. */
    private WrittenSinceRead writtenSinceRead;

    ReconciliationGate(SwitchConnection sw) {
        this.sw = sw;
    }

    /** A message goes to the switch: a flow it installs is remembered while a reconciliation runs. Loop thread. */
    void written(OFMessage msg) {
        if (writtenSinceRead != null) {
            written(FlowKey.installedBy(msg));
        }
    }

    /** The flow a message written from another thread installs ({@code null}: none). Loop thread. */
    void written(FlowKey installed) {
        if (writtenSinceRead != null && installed != null) {
            writtenSinceRead.written(installed);
        }
    }

    /** The role this controller holds the switch in now. Loop thread. */
    Mastership mastership() {
        return new Mastership(sw.roles().epoch(), sw.roles().role());
    }

    /** Whether this controller still holds the active switch under {@code m}; final when asked on the loop thread. */
    boolean holds(Mastership m) {
        // Stepping down counts as over: its writes would go through the new master, which never wants them.
        return sw.isActive() && sw.roles().epoch() == m.epoch() && !sw.roles().steppingDown();
    }

    /**
     * Reads the switch's flow table for a reconciliation under {@code m}: each reply part may take {@code silence}
     * after the previous one, and more than {@code maxFlows} flows fail it ({@link RequestTracker.TableTooLargeException}).
     * From the request on, the flows written to the switch are remembered (see {@link #writeReconciled}) until
     * {@link #end}. Any thread.
     */
    CompletableFuture<List<OFStatsReply>> readFlowTable(Mastership m, Duration silence, int maxFlows) {
        var result = new CompletableFuture<List<OFStatsReply>>();
        sw.execute(() -> {
            if (!holds(m)) {
                result.completeExceptionally(notHeld(m));
                return;
            }
            writtenSinceRead = new WrittenSinceRead(m, maxFlows);
            var msg = new OFStatsRequest(sw.nextXid(), 0, OFFlowStatsRequest.all());
            RequestTracker.relay(sw.requests().flowTable(msg, sw.loop().now, silence, maxFlows), result);
            sw.flushNow();
        });
        return result;
    }

    /**
     * Writes a reconciliation's messages while this controller holds the switch under {@code m}, straight to the
     * switch (a member demoted meanwhile writes nothing, never through the new master), leaving out the strict
     * deletes that would take off a flow written since the table was read. Any thread.
     *
     * @return how many deletes were left out; fails with {@link MastershipLostException} when {@code m} is over
     */
    CompletableFuture<Integer> writeReconciled(Mastership m, List<? extends OFMessage> msgs) {
        var result = new CompletableFuture<Integer>();
        sw.execute(() -> {
            if (!holds(m)) {
                result.completeExceptionally(notHeld(m));
                return;
            }
            int left = 0;
            for (var msg : msgs) {
                if (msg instanceof OFFlowMod mod && mod.command() == OFFlowMod.Command.DELETE_STRICT
                        && writtenSinceRead != null && writtenSinceRead.hits(mod)) {
                    left++;
                } else {
                    sw.write(msg);
                }
            }
            sw.flushNow();
            result.complete(left);
        });
        return result;
    }

    /** The reconciliation under {@code m} is over: written flows are no longer remembered. Any thread. */
    void end(Mastership m) {
        sw.execute(() -> {
            if (writtenSinceRead != null && writtenSinceRead.readUnder().equals(m)) {
                writtenSinceRead = null;
            }
        });
    }

    private RuntimeException notHeld(Mastership m) {
        return sw.isActive() ? new MastershipLostException(m.role(), sw.roles().role()) : sw.disconnected();
    }
}
