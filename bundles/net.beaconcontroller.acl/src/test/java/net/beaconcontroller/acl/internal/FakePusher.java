package net.beaconcontroller.acl.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

import net.beaconcontroller.staticflowpusher.IStaticFlowPusher;
import net.beaconcontroller.staticflowpusher.StaticFlow;

/** The static flows as a map, each add and remove counted. */
final class FakePusher implements IStaticFlowPusher {
    private final Map<String, StaticFlow> flows = new TreeMap<>();
    int adds;
    int removes;

    @Override
    public synchronized boolean add(StaticFlow flow) {
        adds++;
        flows.put(flow.name(), flow);
        return true;
    }

    @Override
    public synchronized Optional<StaticFlow> remove(String name) {
        removes++;
        return Optional.ofNullable(flows.remove(name));
    }

    @Override
    public synchronized int clear(long dpid) {
        throw new UnsupportedOperationException("the ACL removes its flows one by one");
    }

    @Override
    public synchronized int clearAll() {
        throw new UnsupportedOperationException("the ACL removes its flows one by one");
    }

    @Override
    public synchronized List<StaticFlow> getFlows() {
        return new ArrayList<>(flows.values());
    }

    synchronized List<String> names() {
        return new ArrayList<>(flows.keySet());
    }
}
