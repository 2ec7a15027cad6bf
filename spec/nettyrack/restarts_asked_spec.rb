# frozen_string_literal: true

require "nettyrack/restarts_asked"

RSpec.describe Nettyrack::RestartsAsked do
  it "keeps each reason once, in the order asked, until taken" do
    asked = described_class.new
    expect(asked.any?).to be(false)
    ["SIGUSR2", "tmp/restart.txt touched", "SIGUSR2", "control /restart"].each { |reason| asked.add(reason) }
    expect(asked.any?).to be(true)
    expect(asked.take).to eq("SIGUSR2, tmp/restart.txt touched, control /restart")
    expect([asked.any?, asked.take]).to eq([false, ""])
  end
end
