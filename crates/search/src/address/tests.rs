use super::*;

#[test]
fn an_address_reads_back_as_printed() {
    for address in [
        Address::Stream { job: 0, index: 32 },
        Address::Seed(5004),
        Address::Game(12),
        Address::Sized {
            size: 3,
            index: 1200,
        },
    ] {
        let printed = address.to_string();
        assert_eq!(printed.parse::<Address>(), Ok(address), "{printed}");
    }
    assert_eq!(
        "job 0 case 32".parse::<Address>().unwrap().to_string(),
        "job 0 case 32"
    );
    assert!("0.32".parse::<Address>().is_err());
    let overflow = "seed 99999999999999999999"
        .parse::<Address>()
        .unwrap_err()
        .0;
    assert!(overflow.contains("too large"), "{overflow}");
    let not_a_number = "job x case 1".parse::<Address>().unwrap_err().0;
    assert!(
        not_a_number.contains("not a whole number"),
        "{not_a_number}"
    );
}
