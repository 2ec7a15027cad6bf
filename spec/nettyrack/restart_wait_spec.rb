# frozen_string_literal: true

require "json"
require "nettyrack/restart_wait"

RSpec.describe Nettyrack::RestartWait do
  # A control endpoint that answers GET /stats from a list, one entry a call (the last one
  # again once they run out); :gone for a moment with nobody there.
  class ScriptedEndpoint
    def initialize(*answers)
      @answers = answers
    end

    def call(_verb, _path)
      answer = @answers.size > 1 ? @answers.shift : @answers.first
      raise Nettyrack::ControlClient::Failure, "cannot reach the control endpoint" if answer == :gone

      JSON.generate("process" => answer)
    end
  end

  let(:now) { [0.0] }
  let(:clock) { -> { now.first } }
  let(:pause) { ->(seconds) { now[0] += seconds } }

  def wait(endpoint, old_pid: 100, timeout: 60)
    described_class.new(endpoint, old_pid, clock: clock, pause: pause).until_replaced(timeout)
  end

  it "returns the new pid once another process serves there, waiting through the change of hands" do
    endpoint = ScriptedEndpoint.new({ "pid" => 100, "phase" => "serving", "restart" => "in progress (pid 200)" }, :gone,
                                    { "pid" => 200, "phase" => "booting", "restart" => nil },
                                    { "pid" => 200, "phase" => "serving", "restart" => nil })
    expect(wait(endpoint)).to eq(200)
    expect(now.first).to eq(1.5)
  end

  it "says why when the old process reports the restart failed" do
    endpoint = ScriptedEndpoint.new({ "pid" => 100, "phase" => "serving", "restart" => "requested" },
                                    { "pid" => 100, "phase" => "serving", "restart" => "failed: syntax error in config.ru:3" })
    expect { wait(endpoint) }.to raise_error(Nettyrack::ControlClient::Failure,
                                             "the hot restart of pid 100 failed: syntax error in config.ru:3")
  end

  it "gives up after the timeout" do
    endpoint = ScriptedEndpoint.new({ "pid" => 100, "phase" => "serving", "restart" => "in progress (pid 200)" })
    expect { wait(endpoint, timeout: 5) }.to raise_error(Nettyrack::ControlClient::Failure,
                                                         "no new process served within 5 s (pid 100 still serves)")
  end
end
