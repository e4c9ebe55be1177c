package net.beaconcontroller.maple.internal;

import java.util.Collection;
import java.util.List;

import net.beaconcontroller.maple.Environment;
import net.beaconcontroller.maple.Policy;
import net.beaconcontroller.topology.SwitchPort;

/**
 * The Maple engine's package-private API for the benchmarks (hence this class in its package): an engine for a
 * policy, packets made once at setup, and the engine's operations counted by the flow changes they give.
 */
public final class MapleHarness {
    private final Policy policy;
    private final Environment network;
    private final Collection<Long> switches;
    private MapleEngine engine;

    public MapleHarness(Policy policy, Environment network, Collection<Long> switches) {
        this.policy = policy;
        this.network = network;
        this.switches = List.copyOf(switches);
        reset();
    }

    /** A new engine with an empty tree, every switch connected. */
    public void reset() {
        engine = new MapleEngine(policy, network, 1, 0xfffe);
        switches.forEach(engine::switchAdded);
    }

    /** An untagged TCP packet from host {@code src} to host {@code dst} entering at {@code ingress}. */
    public static Object packet(SwitchPort ingress, long src, long dst, int nwSrc, int nwDst, int tpDst) {
        return Header.of(ingress, src, dst, 0xffff, 0, 0x0800, 0, 6, nwSrc, nwDst, 40000, tpDst);
    }

    /** The route from the tree, or from the policy on a miss; the number of flow changes. */
    public int decide(Object packet) {
        return engine.decide((Header) packet).changes().size();
    }

    public boolean lookup(Object packet) {
        return engine.lookup((Header) packet) != null;
    }

    public int hostChanged(long mac) {
        return engine.hostChanged(mac).size();
    }

    public int portChanged(SwitchPort port) {
        return engine.portChanged(port).size();
    }

    public int leaves() {
        return engine.leafCount();
    }

    public int rules() {
        return engine.tables().values().stream().mapToInt(List::size).sum();
    }
}
