package net.beaconcontroller.core.internal;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.ServerSocketChannel;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import net.beaconcontroller.core.BeaconSettings;
import net.beaconcontroller.core.Command;
import net.beaconcontroller.core.IBeaconProvider;
import net.beaconcontroller.core.IOFInitializerListener;
import net.beaconcontroller.core.IOFMessageListener;
import net.beaconcontroller.core.IOFSwitch;
import net.beaconcontroller.core.IOFSwitchListener;
import net.beaconcontroller.openflow.OFMessage;
import net.beaconcontroller.openflow.OFType;

/**
 * The controller: accepts switch connections, spreads them over the I/O loops, and runs the listener pipelines.
 * Published as {@link IBeaconProvider}.
 */
@Component(service = IBeaconProvider.class, immediate = true)
public final class Controller implements IBeaconProvider {
    private static final Logger log = LoggerFactory.getLogger(Controller.class);
    /** How long a listener removal waits for each I/O thread to finish the dispatch it is in. */
    private static final long QUIESCE_MILLIS = 5000;

    private Settings settings;
    private final Map<Long, IOFSwitch> switches = new ConcurrentHashMap<>();
    private final Map<Long, IOFSwitch> switchesView = Collections.unmodifiableMap(switches);
    private final List<List<IOFMessageListener>> registered = new ArrayList<>();
    /** Per type, the pipeline in its configured order; replaced, never changed, so dispatch reads it without locks. */
    private volatile IOFMessageListener[][] pipelines;
    private volatile IOFSwitchListener[] switchListeners = new IOFSwitchListener[0];
    private final List<IOFInitializerListener> initializers = new CopyOnWriteArrayList<>();
    private final List<IOLoop> loops = new ArrayList<>();
    private ServerSocketChannel server;
    private Thread acceptor;

    public Controller() {
        for (int i = 0; i < OFType.values().length; i++) {
            registered.add(new ArrayList<>());
        }
        pipelines = new IOFMessageListener[OFType.values().length][0];
    }

    /** For tests and tools that run the controller outside OSGi. */
    public Controller(Settings settings) {
        this();
        this.settings = settings;
    }

    @Activate
    void activate() {
        try {
            settings = Settings.load(log::warn);
        } catch (SettingsException e) {
            // One clear line and a non-zero exit: a controller with a half-understood configuration must not run.
            System.err.println("beacon: " + e.getMessage());
            log.error("{}", e.getMessage());
            // halt, not exit: nothing has started that needs stopping, and exit's shutdown hooks would wait for the
            // framework, which is busy starting this very component.
            Runtime.getRuntime().halt(2);
            return;
        }
        try {
            start();
        } catch (IOException e) {
            String where = settings.getString("controller.listenAddress") + ":" + settings.getInt("controller.listenPort");
            System.err.println("beacon: cannot listen on " + where + ": " + e.getMessage());
            log.error("cannot listen on {}: {}", where, e.getMessage());
            Runtime.getRuntime().halt(2);
        }
    }

    @Deactivate
    void deactivate() {
        stop();
    }

    /** Opens the listener and starts the I/O threads. */
    public synchronized void start() throws IOException {
        int threads = settings.getInt("controller.threadCount");
        try {
            for (int i = 0; i < threads; i++) {
                loops.add(new IOLoop(this, i));
            }
            server = ServerSocketChannel.open();
            server.setOption(StandardSocketOptions.SO_REUSEADDR, true);
            server.bind(new InetSocketAddress(settings.getString("controller.listenAddress"),
                    settings.getInt("controller.listenPort")), 1024);
        } catch (IOException | RuntimeException e) {
            loops.forEach(IOLoop::closeUnstarted);
            loops.clear();
            if (server != null) {
                server.close();
                server = null;
            }
            throw e;
        }
        loops.forEach(IOLoop::start);
        acceptor = new Thread(this::acceptLoop, "beacon-acceptor");
        acceptor.start();
        log.info("listening for OpenFlow switches on {} with {} I/O thread(s), settings from {}",
                server.getLocalAddress(), threads, settings.source());
    }

    /** Closes the listener and every connection; listeners hear {@code removedSwitch} for each active switch. */
    public synchronized void stop() {
        if (server == null) {
            return;
        }
        try {
            server.close();
        } catch (IOException e) {
            log.debug("closing listener", e);
        }
        loops.forEach(IOLoop::stop);
        try {
            if (acceptor != null) {
                acceptor.join(2000);
            }
            for (var loop : loops) {
                loop.join(2000);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        loops.clear();
        server = null;
        log.info("controller stopped");
    }

    /** The bound port (useful with {@code controller.listenPort=0} in tests). */
    public int getLocalPort() throws IOException {
        return ((InetSocketAddress) server.getLocalAddress()).getPort();
    }

    private void acceptLoop() {
        while (true) {
            try {
                var channel = server.accept();
                var loop = loops.stream().filter(IOLoop::isRunning)
                        .min(Comparator.comparingInt(l -> l.switchCount.get())).orElse(null);
                if (loop == null) {
                    log.error("no I/O thread is running: refusing the connection from {}", channel.getRemoteAddress());
                    channel.close();
                } else {
                    loop.adopt(channel);
                }
            } catch (ClosedChannelException e) {
                return;
            } catch (IOException | RuntimeException e) {
                // E.g. out of file descriptors: accept fails at once, every time; don't spin on it.
                log.warn("accept failed: {}", e.toString());
                try {
                    Thread.sleep(100);
                } catch (InterruptedException ie) {
                    return;
                }
            }
        }
    }

    @Override
    public BeaconSettings getSettings() {
        return settings;
    }

    @Override
    public Map<Long, IOFSwitch> getSwitches() {
        return switchesView;
    }

    // ------------------------------------------------------------------------------------------------- dispatching

    /** Runs a message through its type's pipeline, on the switch's I/O thread. */
    void dispatch(SwitchConnection sw, OFMessage msg) {
        for (var listener : pipelines[msg.type().ordinal()]) {
            Command result;
            try {
                result = listener.receive(sw, msg);
            } catch (Throwable t) {
                survive(t, "listener " + listener.getName() + " failed on " + msg.type() + " from switch " + sw.getStringId());
                continue;
            }
            if (result == Command.STOP) {
                return;
            }
        }
    }

    /**
     * A listener's failure is logged and the I/O thread carries on: one bad application must not take the
     * switches of every other one down. Only a JVM in trouble (out of memory, internal error) is rethrown.
     */
    private static void survive(Throwable t, String what) {
        if (t instanceof VirtualMachineError && !(t instanceof StackOverflowError)) {
            throw (VirtualMachineError) t;
        }
        log.error(what, t);
    }

    CompletionStage<?> runInitializers(SwitchConnection sw) {
        CompletionStage<?> chain = CompletableFuture.completedFuture(null);
        for (var init : initializers) {
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

    /**
     * Makes a switch active. A switch with the same DPID is closed first, on its own thread, and only then does the
     * new one become active, so listeners hear {@code removedSwitch(old)} before {@code addedSwitch(new)}.
     */
    void makeActive(SwitchConnection sw) {
        var old = (SwitchConnection) switches.putIfAbsent(sw.getId(), sw);
        if (old == null) {
            sw.becomeActive();
            return;
        }
        old.loop().execute(() -> {
            old.close("replaced by a new connection from " + sw.getRemoteAddress());
            sw.loop().execute(() -> {
                if (sw.isConnected()) {
                    makeActive(sw);
                }
            });
        });
    }

    void switchAdded(SwitchConnection sw) {
        for (var l : switchListeners) {
            try {
                l.addedSwitch(sw);
            } catch (Throwable t) {
                survive(t, "switch listener " + l.getName() + " failed on addedSwitch " + sw.getStringId());
            }
        }
    }

    void switchRemoved(SwitchConnection sw) {
        switches.remove(sw.getId(), sw);
        for (var l : switchListeners) {
            try {
                l.removedSwitch(sw);
            } catch (Throwable t) {
                survive(t, "switch listener " + l.getName() + " failed on removedSwitch " + sw.getStringId());
            }
        }
    }

    // --------------------------------------------------------------------------------------------------- listeners

    @Override
    public void addOFMessageListener(OFType type, IOFMessageListener listener) {
        synchronized (registered) {
            registered.get(type.ordinal()).add(listener);
            rebuildPipelines();
        }
    }

    @Override
    public void removeOFMessageListener(OFType type, IOFMessageListener listener) {
        synchronized (registered) {
            registered.get(type.ordinal()).remove(listener);
            rebuildPipelines();
        }
        quiesce();
    }

    private void rebuildPipelines() {
        var next = new IOFMessageListener[registered.size()][];
        for (var type : OFType.values()) {
            var order = settings == null ? List.<String>of() : settings.getList("controller.callbackOrdering[" + type.name() + "]");
            var list = new ArrayList<>(registered.get(type.ordinal()));
            // Stable sort: named listeners in the configured order, the others after them as registered.
            list.sort(Comparator.comparingInt(l -> {
                int i = order.indexOf(l.getName());
                return i < 0 ? Integer.MAX_VALUE : i;
            }));
            next[type.ordinal()] = list.toArray(IOFMessageListener[]::new);
        }
        pipelines = next;
    }

    /** Listener names per type, in pipeline order (for the console and tests). */
    public List<String> pipeline(OFType type) {
        return Arrays.stream(pipelines[type.ordinal()]).map(IOFMessageListener::getName).toList();
    }

    @Override
    public synchronized void addOFSwitchListener(IOFSwitchListener listener) {
        var next = Arrays.copyOf(switchListeners, switchListeners.length + 1);
        next[next.length - 1] = listener;
        switchListeners = next;
    }

    @Override
    public void removeOFSwitchListener(IOFSwitchListener listener) {
        synchronized (this) {
            switchListeners = Arrays.stream(switchListeners).filter(l -> l != listener)
                    .toArray(IOFSwitchListener[]::new);
        }
        quiesce();
    }

    @Override
    public void addOFInitializerListener(IOFInitializerListener listener) {
        initializers.add(listener);
    }

    @Override
    public void removeOFInitializerListener(IOFInitializerListener listener) {
        initializers.remove(listener);
    }

    /** Returns once no I/O thread is still in a dispatch that may have seen a removed listener. */
    private void quiesce() {
        List<IOLoop> current;
        synchronized (this) {
            current = List.copyOf(loops);
        }
        // An I/O thread must not wait for the others: two of them removing listeners at once would wait for each
        // other. From there the removal holds for every dispatch that starts afterwards.
        if (current.stream().anyMatch(IOLoop::inLoop)) {
            return;
        }
        current.forEach(l -> l.quiesce(QUIESCE_MILLIS));
    }

}
