package net.beaconcontroller.core.internal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.Constants;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.ConfigurationPolicy;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Modified;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicy;
import org.osgi.service.component.annotations.ReferencePolicyOption;
import org.osgi.service.metatype.annotations.Designate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import net.beaconcontroller.config.SettingException;
import net.beaconcontroller.config.StartUp;
import net.beaconcontroller.connections.IConnectionHolder;
import net.beaconcontroller.core.FlowReconciliationStats;
import net.beaconcontroller.core.IFlowReconciler;
import net.beaconcontroller.core.IBeaconProvider;
import net.beaconcontroller.core.IOFInitializerListener;
import net.beaconcontroller.core.IOFMessageListener;
import net.beaconcontroller.core.IOFSwitch;
import net.beaconcontroller.core.IOFSwitchListener;
import net.beaconcontroller.core.IoLoopStats;
import net.beaconcontroller.core.IRoleArbiter;
import net.beaconcontroller.core.ListenerStats;
import net.beaconcontroller.core.SwitchLocal;
import net.beaconcontroller.openflow.OFMessage;
import net.beaconcontroller.openflow.OFType;

/**
 * The controller: accepts switch connections, spreads them over the I/O loops, and runs the listener pipelines.
 * Published as {@link IBeaconProvider}; {@link ListenerWhiteboard} hands it the listeners applications publish.
 */
@Component(service = {IBeaconProvider.class, Controller.class}, immediate = true, configurationPid = "controller",
        configurationPolicy = ConfigurationPolicy.REQUIRE)
@Designate(ocd = ControllerConfig.class)
public final class Controller implements IBeaconProvider {
    private static final Logger log = LoggerFactory.getLogger(Controller.class);
    /** How long a listener removal waits for each I/O thread to finish the dispatch it is in. */
    private static final long QUIESCE_MILLIS = 5000;

    private volatile ControllerConfig config;
    /** The TLS listener's keys and trust, when {@code controller.tlsListenPort} is on; else null. */
    private volatile TlsContext tls;
    private final ListenerRegistry listeners = new ListenerRegistry();
    private final ActiveSwitches switches = new ActiveSwitches(listeners);
    private volatile IRoleArbiter roleArbiter;
    private volatile IConnectionHolder connectionHolder;
    /** The framework, to tell a bundle update from a shutdown; null outside OSGi. */
    private volatile Bundle systemBundle;
    /** Released once the framework has started (at once outside OSGi and for a restart of this bundle). */
    private volatile CountDownLatch frameworkStarted = new CountDownLatch(0);
    private final IoThreads io = new IoThreads(this, () -> tls);
    private final FlowReconciliation reconciliation = new FlowReconciliation();
    private final SwitchIdentity identity = new SwitchIdentity();

    /** For Declarative Services, which then calls {@link #activate}. */
    public Controller() {
    }

    /** For tests and tools that run the controller outside OSGi; {@link #start()} opens the listener. */
    public Controller(ControllerConfig config) {
        configure(config);
    }

    @Activate
    void activate(BundleContext context, ControllerConfig config) {
        systemBundle = context.getBundle(Constants.SYSTEM_BUNDLE_LOCATION);
        frameworkStarted = StartUp.latch(context);
        configure(config);
        try {
            start();
        } catch (IOException e) {
            throw new UncheckedIOException(e.getMessage(), e);
        }
        adoptHeld();
    }

    @Modified
    void modified(ControllerConfig next) throws IOException {
        var before = config;
        configure(next);
        if (ListenPorts.changed(before, next) || before.threadCount() != next.threadCount()) {
            log.warn("the listener settings changed: restarting the OpenFlow listener; switches reconnect");
            stop();
            start();
        }
    }

    /**
     * The core stops (an update, a refresh, a stop at the console): the switches' connections go to the holder. Not
     * when the whole framework stops: no core follows in this process, and connections closed at once let the switches
     * reconnect to the next process as before (held ones closed later by the holder slowed that reconnection).
     */
    @Deactivate
    void deactivate() {
        var system = systemBundle;
        boolean exiting = system != null && system.getState() == Bundle.STOPPING;
        stop(exiting ? null : connectionHolder);
    }

    /** Where a stopping core leaves its switches' connections and a starting one finds them (docs/running.md). */
    @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC,
            policyOption = ReferencePolicyOption.GREEDY)
    public void setConnectionHolder(IConnectionHolder holder) {
        connectionHolder = holder;
        adoptHeld();
    }

    public void unsetConnectionHolder(IConnectionHolder holder) {
        if (connectionHolder == holder) {
            connectionHolder = null;
        }
    }

    /** Takes over the connections a previous core left in the holder, once this one runs. */
    private void adoptHeld() {
        var holder = connectionHolder;
        if (holder != null) {
            io.adoptHeld(holder);
        }
    }

    /** The cluster's arbiter of switch roles, when one runs (see {@link IRoleArbiter}); also for tests. */
    @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC,
            policyOption = ReferencePolicyOption.GREEDY)
    public void setRoleArbiter(IRoleArbiter arbiter) {
        roleArbiter = arbiter;
        // Switches connected before the cluster started (a bundle started at runtime) take the role it gives them now.
        for (var sw : switches.all()) {
            ((SwitchConnection) sw).roles().adopt(arbiter);
        }
    }

    public void unsetRoleArbiter(IRoleArbiter arbiter) {
        if (roleArbiter == arbiter) {
            roleArbiter = null;
        }
    }

    IRoleArbiter roleArbiter() {
        return roleArbiter;
    }

    /** Checks what the metatype cannot (a host name, one key against another) and makes the settings current. */
    private void configure(ControllerConfig c) {
        if (!Hosts.isHost(c.listenAddress())) {
            throw new SettingException("controller.listenAddress", c.listenAddress(),
                    "expected an IP address or host name");
        }
        ListenPorts.check(c);
        if (c.echoTimeout() <= c.echoInterval()) {
            throw new SettingException("controller.echoTimeout", Integer.toString(c.echoTimeout()),
                    "it must be greater than controller.echoInterval (" + c.echoInterval() + ")");
        }
        // Read here, not when a switch connects: a missing file or a wrong password stops the start naming its key.
        // Before anything is applied: a change that fails leaves the settings as they were.
        var nextTls = c.tlsListenPort() == ListenPorts.OFF ? null : TlsContext.of(c);
        var ordering = ListenerRegistry.parseOrdering(c.callbackOrdering());
        tls = nextTls;
        config = c;
        listeners.configure(c.threadCount(), ordering);
    }

    ControllerConfig config() {
        return config;
    }

    /** Opens the listeners and starts the I/O threads. */
    public synchronized void start() throws IOException {
        var c = config;
        reconciliation.start();
        try {
            io.start(ListenPorts.endpoints(c), c.threadCount(), frameworkStarted);
        } catch (IOException | RuntimeException e) {
            reconciliation.stop();
            throw e;
        }
    }

    /** Closes the listeners and every connection; listeners hear {@code removedSwitch} for each active switch. */
    public void stop() {
        stop(null);
    }

    /** As {@link #stop()}, but the active connections go to {@code holder} (if any) instead of closing. */
    private synchronized void stop(IConnectionHolder holder) {
        if (io.stop(holder)) {
            reconciliation.stop();
            log.info("controller stopped");
        }
    }

    /**
     * The first bound port: {@code controller.listenPort}, or {@code controller.legacyListenPort} when that is off
     * (useful with port 0 in tests).
     */
    public int getLocalPort() throws IOException {
        return io.localPorts().get(0);
    }

    /** Every bound port, {@code controller.listenPort}'s first. */
    public List<Integer> getLocalPorts() throws IOException {
        return io.localPorts();
    }

    @Override
    public Map<Long, IOFSwitch> getSwitches() {
        return switches.view();
    }

    @Override
    public List<String> getPipeline(OFType type) {
        return listeners.names(type);
    }

    @Override
    public List<ListenerStats> getListenerStats() {
        return listeners.stats();
    }

    @Override
    public List<IoLoopStats> getIoLoopStats() {
        return io.stats();
    }

    @Override
    public FlowReconciliationStats getFlowReconciliationStats() {
        return reconciliation.stats();
    }

    /** What {@link ListenerWhiteboard} does for a reconciler service; public for tests outside OSGi. */
    public void addFlowReconciler(IFlowReconciler reconciler) {
        reconciliation.add(reconciler);
    }

    public void removeFlowReconciler(IFlowReconciler reconciler) {
        reconciliation.remove(reconciler);
    }

    /** A switch became active with this controller as its master, or this controller became its master. */
    void reconcileFlows(SwitchConnection sw) {
        reconciliation.reconcile(sw, config);
    }

    /** Flow reconciliations over since the start, whether they finished, stopped or failed (for tests). */
    long reconciliationsEnded() {
        return reconciliation.ended();
    }

    @Override
    public void clearLocal(SwitchLocal<?> key) {
        var remaining = new ArrayList<>(switches.all());
        var done = new CountDownLatch(remaining.size());
        for (var sw : remaining) {
            sw.execute(() -> {
                sw.removeLocal(key);
                done.countDown();
            });
        }
        if (remaining.stream().anyMatch(sw -> ((SwitchConnection) sw).loop().inLoop())) {
            return; // an I/O thread cannot wait for itself; its own task ran at once
        }
        try {
            done.await(QUIESCE_MILLIS, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    // ------------------------------------------------------------------------------------------------- dispatching

    /** Runs a message through its type's pipeline, on the switch's I/O thread. */
    void dispatch(SwitchConnection sw, OFMessage msg) {
        Dispatch.run(listeners.pipeline(msg.type()), sw.loop().context(), sw, msg);
    }

    /** The PACKET_IN pipeline's listeners that override {@link IOFMessageListener#prefetch}. */
    IOFMessageListener[] packetInPrefetchers() {
        return listeners.pipeline(OFType.PACKET_IN).prefetchers();
    }

    CompletionStage<?> runInitializers(SwitchConnection sw) {
        CompletionStage<?> chain = CompletableFuture.completedFuture(null);
        for (var init : listeners.initializers()) {
            // Each initializer starts on the switch's I/O thread, whichever thread completed the one before.
            chain = chain.thenComposeAsync(ignored -> {
                try {
                    return init.initializeSwitch(sw);
                } catch (Exception e) {
                    return CompletableFuture.failedFuture(
                            new IllegalStateException("initializer " + init.getName() + " failed: " + e, e));
                }
            }, sw::execute);
        }
        return chain;
    }

    /** Which connection holds each DPID; a connection claims its DPID during its handshake. */
    SwitchIdentity identity() {
        return identity;
    }

    /** Makes a switch active (see {@link ActiveSwitches#put}). */
    void makeActive(SwitchConnection sw) {
        switches.put(sw);
        sw.becomeActive();
    }

    void switchAdded(SwitchConnection sw) {
        switches.added(sw);
    }

    void switchRemoved(SwitchConnection sw) {
        switches.removed(sw);
    }

    // ------------------------------------------------------------------------------- listeners: the whiteboard

    /** Called by {@link ListenerWhiteboard} for a listener service, with its service properties. */
    void addMessageListenerService(IOFMessageListener listener, Map<String, Object> properties) {
        listeners.addMessageService(listener, properties);
    }

    void removeMessageListenerService(IOFMessageListener listener) {
        if (listeners.removeMessage(listener)) {
            quiesce();
        }
    }

    void addSwitchListenerService(IOFSwitchListener listener, Map<String, Object> properties) {
        switches.addListener(listener, properties);
    }

    void addInitializerService(IOFInitializerListener listener, Map<String, Object> properties) {
        listeners.addInitializer(listener, properties);
    }

    // ---------------------------------------------------------------------------- listeners: Beacon 1.0's methods

    @Override
    public void addOFMessageListener(OFType type, IOFMessageListener listener) {
        listeners.addMessage(type, listener);
    }

    @Override
    public void removeOFMessageListener(OFType type, IOFMessageListener listener) {
        if (listeners.removeMessage(type, listener)) {
            quiesce();
        }
    }

    @Override
    public void addOFSwitchListener(IOFSwitchListener listener) {
        switches.addListener(listener, Map.of());
    }

    @Override
    public void removeOFSwitchListener(IOFSwitchListener listener) {
        if (listeners.removeSwitch(listener)) {
            quiesce();
        }
        switches.forget(listener);
    }

    @Override
    public void addOFInitializerListener(IOFInitializerListener listener) {
        listeners.addInitializer(listener, Map.of());
    }

    @Override
    public void removeOFInitializerListener(IOFInitializerListener listener) {
        if (listeners.removeInitializer(listener)) {
            quiesce();
        }
    }

    /** Returns once no I/O thread is still in a dispatch that may have seen a removed listener. */
    private void quiesce() {
        var current = io.loops();
        // An I/O thread must not wait for the others: two of them removing listeners at once would wait for each
        // other. From there the removal holds for every dispatch that starts afterwards.
        if (current.stream().anyMatch(IOLoop::inLoop)) {
            return;
        }
        current.forEach(l -> l.quiesce(QUIESCE_MILLIS));
    }
}
