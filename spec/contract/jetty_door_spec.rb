# frozen_string_literal: true

# spec/fixtures/contract_app through the servlet door: its WAR at /shop in embedded Jetty, booted once for
# the whole contract (spec/support/contract, spec/support/contract_doors.rb).
RSpec.describe "the Rack contract through Jetty" do
  include ContractRequests

  before(:context) { @door = ContractDoors.door(:jetty).start }
  after(:context) { @door&.stop }

  it_behaves_like "the Rack env contract"
  it_behaves_like "the response body contract"
  it_behaves_like "the app error contract"
  it_behaves_like "the bad input contract"
end
