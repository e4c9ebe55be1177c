package net.beaconcontroller.benchmarks;

import org.openjdk.jol.info.GraphLayout;

/**
 * The heap one known host costs the device manager, two ways: JOL walks its object graph with 0 and with 100,000 hosts;
 * and the used heap after a full GC
 * ({@code -Djol.magicFieldOffset=true} lets JOL size the lambdas the manager holds) before and after learning them.
 *
 * <pre>
 * java -Djol.magicFieldOffset=true -cp cbench-scripts/jmh/target/benchmarks.jar \
 *     net.beaconcontroller.benchmarks.DeviceManagerMemory
 * </pre>
 */
public final class DeviceManagerMemory {
    private DeviceManagerMemory() {
    }

    public static void main(String[] args) {
        int n = DeviceManagerBenchmark.HOSTS;
        long empty = GraphLayout.parseInstance(new DeviceManagerFixture(0).dm).totalSize();
        long heapBefore = usedAfterGc();
        var fx = new DeviceManagerFixture(n);
        long heapAfter = usedAfterGc();
        long full = GraphLayout.parseInstance(fx.dm).totalSize();
        System.out.printf("hosts %d: JOL %d bytes (%.1f bytes/host); heap after GC +%d bytes (%.1f bytes/host)%n",
                fx.dm.getDevices().size(), full - empty, (full - empty) / (double) n, heapAfter - heapBefore,
                (heapAfter - heapBefore) / (double) n);
    }

    private static long usedAfterGc() {
        var rt = Runtime.getRuntime();
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return rt.totalMemory() - rt.freeMemory();
    }
}
