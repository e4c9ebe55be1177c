package net.beaconcontroller.core;

import java.util.concurrent.CompletionStage;

/**
 * Takes part in bringing a switch up: after the handshake (features, description, SET_CONFIG, optional flow
 * deletion) each initializer runs in registration order, and the switch becomes active once the stage returned by
 * the last one completes. Typical use: push flows and wait for {@link IOFSwitch#barrier()}.
 *
 * <p>{@link #initializeSwitch} runs on the switch's I/O thread and must not block. A stage that completes
 * exceptionally, or does not complete before {@code controller.echoTimeout}, disconnects the switch.
 */
public interface IOFInitializerListener {
    String getName();

    CompletionStage<?> initializeSwitch(IOFSwitch sw);
}
