package net.beaconcontroller.benchmarks;

import org.openjdk.jol.info.GraphLayout;

import net.beaconcontroller.routing.apsp.internal.ApspEngine;

/**
 * The heap the all-pairs shortest-path engine holds for random networks of growing size (two links per switch each
 * way, as in {@link RoutingEngineBenchmark}), measured by walking its object graph with JOL:
 *
 * <pre>
 * java -cp cbench-scripts/jmh/target/benchmarks.jar net.beaconcontroller.benchmarks.RoutingEngineMemory
 * </pre>
 */
public final class RoutingEngineMemory {
    private RoutingEngineMemory() {
    }

    public static void main(String[] args) {
        System.out.println("switches  links  engine bytes  bytes/switch  bytes/pair");
        for (int switches : new int[] {250, 500, 1000, 2000}) {
            var network = RandomNetwork.of(switches, 2 * switches, 1);
            var engine = new ApspEngine();
            engine.reset(network.linkSet());
            long bytes = GraphLayout.parseInstance(engine).totalSize();
            System.out.printf("%8d %6d %13d %13d %11.2f%n", switches, network.links().size(), bytes, bytes / switches,
                    bytes / ((double) switches * switches));
        }
    }
}
