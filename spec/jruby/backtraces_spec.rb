# frozen_string_literal: true

require_relative "bridge_helper"

# RackHandler#backtraces as the bridge implements it: Thread#backtrace of every live Ruby thread,
# keyed by the JVM thread's id, for the control endpoint's thread dump.
RSpec.describe "RackBridge#backtraces" do
  let(:bridge) do
    Java::OrgNettyrackJruby::RackBridge.new(->(_env) { [200, {}, []] }, StringIO.new, false,
                                            Java::OrgNettyrackCorePush::LocalPubSub.new)
  end

  it "gives each live Ruby thread's backtrace by JVM thread id" do
    release = Queue.new
    pop_line = __LINE__ + 1
    parked = Thread.new { release.pop }
    Timeout.timeout(5) { Thread.pass until parked.status == "sleep" }
    jvm_id = parked.to_java.native_thread.id

    backtraces = bridge.backtraces
    expect(backtraces[jvm_id].to_a.first).to start_with("#{__FILE__}:#{pop_line}:in ")
  ensure
    release << true
    parked&.join(5)
  end

  it "leaves out the thread that asks, busy asking" do
    expect(bridge.backtraces.key?(Thread.current.to_java.native_thread.id)).to be(false)
  end
end
