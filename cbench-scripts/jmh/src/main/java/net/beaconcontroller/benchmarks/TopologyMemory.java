package net.beaconcontroller.benchmarks;

import org.openjdk.jol.info.GraphLayout;

import net.beaconcontroller.topology.internal.TopologyHarness;

/**
 * The heap the topology's store holds (its published view and the last-seen time of every link) for random networks
 * of growing size, two cables per switch (four links), as in {@link RoutingEngineMemory}, measured with JOL:
 *
 * <pre>
 * java -Djol.magicFieldOffset=true -cp cbench-scripts/jmh/target/benchmarks.jar \
 *     net.beaconcontroller.benchmarks.TopologyMemory
 * </pre>
 */
public final class TopologyMemory {
    private TopologyMemory() {
    }

    public static void main(String[] args) {
        System.out.println("switches  links   store bytes  bytes/switch  bytes/link");
        for (int switches : new int[] {250, 500, 1000, 2000}) {
            var network = RandomNetwork.of(switches, 2 * switches, 1);
            long bytes = GraphLayout.parseInstance(TopologyHarness.store(network.links())).totalSize();
            System.out.printf("%8d %6d %13d %13d %11d%n", switches, network.links().size(), bytes, bytes / switches,
                    bytes / network.links().size());
        }
    }
}
