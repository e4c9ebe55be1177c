package net.beaconcontroller.web;

/**
 * Server push: events sent to every client of {@code GET /wm/beacon/events} (server-sent events), e.g. a link that
 * came or went. Web parts publish what changed so the pages update without polling.
 */
public interface IWebEvents {
    /**
     * Queues {@code data} (made JSON) as an event named {@code name}, e.g. {@code link-removed}; clients choose by the
     * name's first word ({@code ?topics=link,device}). Never blocks: safe on an I/O thread. Events that find the
     * queue full are dropped, and the clients are told to read the state again ({@code resync}).
     */
    void publish(String name, Object data);
}
