package net.beaconcontroller.web.internal;

import java.io.IOException;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import org.springframework.http.MediaType;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

import net.beaconcontroller.util.Threads;
import net.beaconcontroller.web.IWebEvents;

/**
 * The clients of {@code /wm/beacon/events} and what is sent to them. Publishers only queue: one thread of the web
 * server's sends, so a slow client delays the others but never a switch's I/O thread. A client whose connection
 * fails is dropped; a heartbeat every 15 s finds the ones that went away quietly.
 */
final class EventHub implements IWebEvents {
    /** One subscriber and the event names it wants (empty: all). */
    private record Client(SseEmitter emitter, Set<String> topics) {
        boolean wants(String name) {
            int dash = name.indexOf('-');
            return topics.isEmpty() || topics.contains(dash < 0 ? name : name.substring(0, dash));
        }
    }

    static final int QUEUE = 10_000;

    private final List<Client> clients = new CopyOnWriteArrayList<>();
    private final ScheduledThreadPoolExecutor sender;
    private final AtomicLong dropped = new AtomicLong();
    private final AtomicBoolean resyncPending = new AtomicBoolean();

    EventHub() {
        sender = new ScheduledThreadPoolExecutor(1, r -> Threads.daemon(r, "web-events"));
        sender.setRemoveOnCancelPolicy(true);
        sender.scheduleAtFixedRate(this::heartbeat, 15, 15, TimeUnit.SECONDS);
    }

    SseEmitter subscribe(Set<String> topics) {
        // No timeout: the stream lasts as long as the client keeps it open.
        var emitter = new SseEmitter(0L);
        var client = new Client(emitter, topics);
        emitter.onCompletion(() -> clients.remove(client));
        emitter.onError(e -> clients.remove(client));
        clients.add(client);
        sender.execute(() -> send(client, SseEmitter.event().name("hello").data("{}", MediaType.APPLICATION_JSON)));
        return emitter;
    }

    @Override
    public void publish(String name, Object data) {
        if (clients.isEmpty()) {
            return;
        }
        if (sender.getQueue().size() >= QUEUE) {
            dropped.incrementAndGet();
            if (resyncPending.compareAndSet(false, true)) {
                submit(() -> {
                    resyncPending.set(false);
                    clients.forEach(c -> send(c, SseEmitter.event().name("resync").data("{}",
                            MediaType.APPLICATION_JSON)));
                });
            }
            return;
        }
        submit(() -> {
            for (var c : clients) {
                if (c.wants(name)) {
                    send(c, SseEmitter.event().name(name).data(data, MediaType.APPLICATION_JSON));
                }
            }
        });
    }

    long dropped() {
        return dropped.get();
    }

    int clients() {
        return clients.size();
    }

    void close() {
        sender.shutdownNow();
        clients.forEach(c -> c.emitter().complete());
        clients.clear();
    }

    private void submit(Runnable task) {
        try {
            sender.execute(task);
        } catch (RejectedExecutionException e) {
            // Closing: nobody is listening any more.
        }
    }

    private void heartbeat() {
        clients.forEach(c -> send(c, SseEmitter.event().comment("heartbeat")));
    }

    private void send(Client c, SseEmitter.SseEventBuilder event) {
        try {
            c.emitter().send(event);
        } catch (IOException | IllegalStateException e) {
            clients.remove(c);
            c.emitter().completeWithError(e);
        }
    }
}
