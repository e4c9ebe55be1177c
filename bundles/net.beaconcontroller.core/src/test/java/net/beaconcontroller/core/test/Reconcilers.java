package net.beaconcontroller.core.test;

import java.util.List;
import java.util.function.BiFunction;

import net.beaconcontroller.core.FlowOwner;
import net.beaconcontroller.core.FlowVerdict;
import net.beaconcontroller.core.IFlowReconciler;
import net.beaconcontroller.core.IOFSwitch;
import net.beaconcontroller.openflow.OFFlowMod;
import net.beaconcontroller.openflow.statistics.OFFlowStatsEntry;

/** Flow reconcilers for tests. */
public final class Reconcilers {
    /** The owner of {@link #broken()}. */
    public static final FlowOwner BROKEN = new FlowOwner(0x81, "broken");

    private record Scripted(FlowOwner owner, BiFunction<IOFSwitch, OFFlowStatsEntry, FlowVerdict> verdicts,
            BiFunction<IOFSwitch, List<OFFlowStatsEntry>, List<OFFlowMod>> misses) implements IFlowReconciler {
        @Override
        public FlowVerdict judge(IOFSwitch sw, OFFlowStatsEntry flow) {
            return verdicts.apply(sw, flow);
        }

        @Override
        public List<OFFlowMod> missing(IOFSwitch sw, List<OFFlowStatsEntry> present) {
            return misses.apply(sw, present);
        }
    }

    private Reconcilers() {
    }

    /** Judges with {@code judge}, misses nothing. */
    public static IFlowReconciler judging(FlowOwner owner, BiFunction<IOFSwitch, OFFlowStatsEntry, FlowVerdict> judge) {
        return new Scripted(owner, judge, (sw, present) -> List.of());
    }

    /**
     * The reconciler of {@link #BROKEN}, as one whose bundle went away under it: every call throws (judging a
     * {@link NoClassDefFoundError}, not even a {@link RuntimeException}).
     */
    public static IFlowReconciler broken() {
        return new Scripted(BROKEN, (sw, flow) -> {
            throw new NoClassDefFoundError("net/example/Gone");
        }, (sw, present) -> {
            throw new IllegalStateException("bundle stopped");
        });
    }
}
