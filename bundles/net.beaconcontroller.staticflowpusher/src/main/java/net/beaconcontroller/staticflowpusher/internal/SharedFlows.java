package net.beaconcontroller.staticflowpusher.internal;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;

import net.beaconcontroller.core.shared.SharedCodec;
import net.beaconcontroller.staticflowpusher.StaticFlow;

/** The cluster's static flows by name, each as its line in the flow file (see {@link FlowFile}). */
final class SharedFlows implements SharedCodec<StaticFlow> {
    static final String TABLE = StaticFlowPusher.NAME + ".flows";
    static final SharedFlows CODEC = new SharedFlows();

    private SharedFlows() {
    }

    @Override
    public int version() {
        return 1;
    }

    @Override
    public void write(StaticFlow flow, DataOutput out) throws IOException {
        out.writeUTF(FlowFile.line(flow));
    }

    @Override
    public StaticFlow read(DataInput in) throws IOException {
        return FlowFile.parse(in.readUTF());
    }
}
