package net.beaconcontroller.staticflowpusher.internal;

import net.beaconcontroller.core.shared.SharedCodec;
import net.beaconcontroller.staticflowpusher.StaticFlow;

/** The cluster's static flows by name, each as its line in the flow file (see {@link FlowFile}). */
final class SharedFlows {
    static final String TABLE = StaticFlowPusher.NAME + ".flows";
    static final SharedCodec<StaticFlow> CODEC = SharedCodec.ofLines(1, FlowFile::line, FlowFile::parse);

    private SharedFlows() {
    }
}
