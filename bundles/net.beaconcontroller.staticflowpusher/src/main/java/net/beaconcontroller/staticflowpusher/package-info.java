/** Static flows: operator-defined flows kept across restarts and switch reconnections. */
package net.beaconcontroller.staticflowpusher;
